import { readdirSync } from 'node:fs'
import { configSecrets, createRedactor, makeTempDir, type TempDir } from '@mcp-bridge/process'
import * as bridge from '@mcp-bridge/plugin'
import { McpServers } from '@mcp-bridge/plugin/features'
import { AttachmentStore, attachConsoleLogger, ModelCatalog, ToolRegistry } from '@mcp-bridge/host'
import { Context, type Fiber } from 'cordis'
import type { CallOutcome, ClientAdapter, ClientSession } from './adapter.ts'
import { askBridge, BRIDGE_BEYOND_CONFIG, BRIDGE_BEYOND_FEATURES } from './bridge-ask.ts'
import { setRootsThroughConfig } from './bridge-roots.ts'
import { offerScenarioAsks } from './host-asks.ts'
import { pluginConfig, secondInstanceRejected } from './plugin-instance.ts'
import { provideSignIn } from './sign-in.ts'

const VISION = { provider: 'kit', model: 'vision' }
const TEXT_ONLY = { provider: 'kit', model: 'text-only' }

/** Our plugin, hosted the way production hosts it: a real Cordis root with the reference services. */
export const bridgeAdapter: ClientAdapter = {
  name: 'mcp-bridge (cordis plugin)',
  routes: { vision: VISION, 'text-only': TEXT_ONLY },
  async start(target, config) {
    const ctx = new Context()
    const logs: string[] = []
    attachConsoleLogger(ctx, { level: 'debug', write: (line) => logs.push(line) })
    // Removed with the session, or by the process's exit and signal handling if the run is cut short.
    const attachments = makeTempDir('kit-attachments-')
    const services = [
      ctx.plugin(ToolRegistry),
      ctx.plugin(AttachmentStore, { directory: attachments.path }),
      // The features beyond tools are asked through it (bridge-ask.ts).
      ctx.plugin(McpServers),
      ctx.plugin(ModelCatalog, {
        models: [
          { ...VISION, inputModalities: ['text', 'image'] },
          { ...TEXT_ONLY, inputModalities: ['text'] },
        ],
      }),
    ]
    for (const service of services) await service
    const resolved = pluginConfig(target, offerScenarioAsks(ctx, config))
    resolved.features = { ...BRIDGE_BEYOND_CONFIG, ...(resolved.features as object | undefined) }
    provideSignIn(ctx, resolved)
    // The instance's connection as it tells it (the plugin's public `mcp/state` event), followed
    // from before it starts, so that no state is missed.
    const serverName = resolved.serverName as string
    const connection: { state: string; pid?: number } = { state: 'stopped' }
    ctx.on('mcp/state', (event) => {
      if (event.serverName !== serverName) return
      connection.state = event.state.kind
      connection.pid = event.pid
    })
    // A held listing replaced after list_changed (the service's public `mcp/list-changed` event), as
    // a log line: a scenario waits on it instead of a quiet wire, whose length the machine decides.
    ctx.on('mcp/list-changed', (event) => {
      if (event.serverName === serverName) logs.push(`[info] mcp/list-changed ${event.kind}: ${event.items.length} items`)
    })
    const fiber = ctx.plugin(bridge, resolved)
    try {
      await fiber
    } catch (error) {
      // The plugin redacts its own logs; this line is the adapter's, so it redacts it too.
      logs.push(`[error] load failed: ${createRedactor(configSecrets(resolved))(String(error))}`)
    }
    return session(ctx, fiber, resolved, serverName, connection, logs, attachments, () => Promise.all(services.map((s) => s.dispose())))
  },
  async registerForeign(session, publicName) {
    const { ctx } = session as BridgeSession
    await ctx.plugin({
      inject: ['tools'],
      apply: (foreign: Context) =>
        void foreign.tools.register({ name: publicName, description: 'a foreign tool', parameters: { type: 'object' }, execute: async () => 'foreign' }),
    })
  },
  async rejectsDuplicate(_session, target, config) {
    const ctx = (_session as BridgeSession).ctx
    return secondInstanceRejected(() => ctx.plugin(bridge, pluginConfig(target, config)))
  },
}

interface BridgeSession extends ClientSession {
  ctx: Context
}


function session(
  ctx: Context,
  fiber: Fiber,
  config: Record<string, unknown>,
  serverName: string,
  connection: { state: string; pid?: number },
  logs: string[],
  attachments: TempDir,
  stopServices: () => Promise<unknown>,
): BridgeSession {
  const registry = () => ctx.get('tools') as ToolRegistry | undefined
  // Only this instance's tools: other plugins of the host (a squatter) are not the client's.
  const ownTools = () =>
    (registry()?.list() ?? []).flatMap((schema) => {
      const source = registry()?.get(schema.name)?.source
      return source?.serverName === serverName ? [{ ...schema, rawName: source.rawName }] : []
    })
  // What the registry held right after the plugin was disposed, read before the host's own
  // services stop (once they stop there is no registry left to hold a forgotten tool).
  let afterDispose: ReturnType<typeof ownTools> | undefined
  return {
    ctx,
    tools: () => afterDispose ?? ownTools(),
    onToolsChange: (listener) => ctx.on('tools/change', () => listener()),
    call: async (publicName, args, options) => toOutcome(await registry()!.execute(publicName, args, options)),
    state: () => connection.state,
    features: () => BRIDGE_BEYOND_FEATURES,
    ask: async (request) => {
      if (request.op !== 'setRoots') return askBridge((ctx.get('mcpServers') as McpServers | undefined)?.get(serverName), request)
      const { outcome, config: next } = await setRootsThroughConfig(fiber, config, request.roots)
      config = next
      return outcome
    },
    logs: () => logs,
    pids: () => (connection.pid === undefined ? [] : [connection.pid]),
    attachmentCount: () => (afterDispose ? 0 : readdirSync(attachments.path).length),
    dispose: async () => {
      await fiber.dispose()
      afterDispose = ownTools()
      await stopServices()
      attachments.remove()
    },
  }
}

function toOutcome(result: bridge.ToolResult): CallOutcome {
  const content = result.content.map((block) =>
    block.type === 'text' ? block : { type: 'image' as const, ref: `${block.attachment.mediaType}:${block.attachment.bytes}` },
  )
  return result.isError ? { isError: true, code: result.error.code, content } : { isError: false, content, value: result.value }
}
