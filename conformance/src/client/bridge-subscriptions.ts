import type { McpServer } from '@mcp-bridge/plugin/features'

/**
 * The resource subscriptions a scenario holds through the bridge, as a host's programmatic caller
 * would: one listener per URI, and every update the bridge told it of, in order (the driver
 * protocol's `subscribe`, `unsubscribe` and `updates`). Kept per instance, so per run.
 */
interface Held {
  ends: Map<string, () => Promise<void>>
  heard: string[]
}

const held = new WeakMap<McpServer, Held>()

function of(server: McpServer): Held {
  let found = held.get(server)
  if (!found) held.set(server, (found = { ends: new Map(), heard: [] }))
  return found
}

export async function subscribeThroughBridge(server: McpServer, uri: string): Promise<Record<string, unknown>> {
  const state = of(server)
  if (state.ends.has(uri)) throw new Error(`already subscribed to ${uri.slice(0, 200)}`)
  state.ends.set(uri, await server.subscribe(uri, (update) => state.heard.push(update.uri)))
  return {}
}

export async function unsubscribeThroughBridge(server: McpServer, uri: string): Promise<Record<string, unknown>> {
  const state = of(server)
  const end = state.ends.get(uri)
  if (!end) throw new Error(`not subscribed to ${uri.slice(0, 200)}`)
  state.ends.delete(uri)
  await end()
  return {}
}

export function updatesHeard(server: McpServer): Record<string, unknown> {
  return { updated: [...of(server).heard] }
}
