import type { ServerTarget } from './adapter.ts'

/** Pure: the bridge's config for a scenario's server, whichever host runs the plugin. */
export function pluginConfig(target: ServerTarget, config: Record<string, unknown>): Record<string, unknown> {
  const serverName = (config.serverName as string | undefined) ?? 'fixture'
  if (target.transport === 'stdio') {
    const env = { ...target.env, ...(config.env as Record<string, string> | undefined) }
    return { ...config, serverName, transport: 'stdio', command: target.command, args: target.args, env }
  }
  // The legacy HTTP+SSE transport is asked for by name; otherwise an HTTP target is Streamable HTTP.
  return { ...config, serverName, transport: config.transport === 'sse' ? 'sse' : 'streamable-http', url: target.url }
}

/** Starts a second instance and reports whether the host refused it, and with what error; it never stays loaded. */
export async function secondInstanceRejected(start: () => PromiseLike<unknown> & { dispose(): unknown }): Promise<{ rejected: boolean; message?: string }> {
  const second = start()
  try {
    await second
    return { rejected: false }
  } catch (error) {
    return { rejected: true, message: error instanceof Error ? error.message : String(error) }
  } finally {
    await second.dispose()
  }
}
