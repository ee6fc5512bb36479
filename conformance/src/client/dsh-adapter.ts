import { configSecrets, createRedactor } from '@mcp-bridge/process'
import * as bridge from '@mcp-bridge/plugin'
import type { CallOutcome, ClientAdapter, ClientSession, ModelRoute } from './adapter.ts'
import { setRootsThroughConfig } from './bridge-roots.ts'
import { pluginConfig, secondInstanceRejected } from './plugin-instance.ts'
import { offerScenarioAsks } from './host-asks.ts'
import { provideSignIn } from './sign-in.ts'

/**
 * Our plugin hosted by the DeepSeek harness instead of our reference registry: the tools service
 * is dsh-tools' ToolRuntime (`schemas()`, `execute({ callId, name, arguments, signal, agent })`,
 * `output: { schema, render(args, value) }`). The harness packages need Node 22 and are not
 * dependencies of the kit: the caller brings them, as a `DshHost` that makes a harness root
 * (hosts/dsh/kit.mjs passes one built from the versions pinned in hosts/dsh/). The kit then judges
 * the same plugin, in the same scenarios, through the harness' own tool pipeline.
 */

/** One model the root's `llm` service knows, with what it accepts as input. */
export interface DshModel {
  provider: string
  model: string
  inputModalities: string[]
}

/** What the adapter uses of a ToolRuntime (`@deepseek-ai/dsh-tools`). */
export interface DshToolRuntime {
  schemas(): Array<{ name: string; description: string; parameters: Record<string, unknown> }>
  get(name: string): { source?: { serverName?: string; rawName?: string } } | undefined
  execute(input: { callId: string; name: string; arguments: unknown; signal: AbortSignal; agent?: unknown }): Promise<DshResult>
  register(definition: Record<string, unknown>): () => void
}

export type DshResult =
  | { isError: false; value: unknown; content: DshBlock[] }
  | { isError: true; error: { message: string; info?: { name: string; code: string } }; content: DshBlock[] }
export type DshBlock = { type: 'text'; text: string } | { type: 'image'; attachment: { mediaType: string; bytes: number } } | { type: string }

/** A Cordis fiber as `ctx.plugin()` returns it: awaitable, disposable, and its config updatable (public Cordis API). */
export interface DshFiber extends PromiseLike<unknown> {
  dispose(): Promise<unknown> | unknown
  update?(config: Record<string, unknown>): unknown
}

/** The parts of a harness root (an `@deepseek-ai/cordis` Context) the adapter touches. */
export interface DshContext {
  plugin(plugin: unknown, config?: unknown): DshFiber
  get(name: string): unknown
  on(event: string, listener: (...args: unknown[]) => void): () => void
}

export interface DshRoot {
  ctx: DshContext
  /** Every log line of the root, `[level] name: message`, as the reference host writes them. */
  logs: string[]
  /** Images the root's attachment store holds. */
  attachmentCount(): number
  dispose(): Promise<void>
}

export interface DshHost {
  /** A fresh root: SystemPrompt, ToolRuntime, an AttachmentStore, and an LlmRuntime knowing `models`. */
  createRoot(models: DshModel[]): Promise<DshRoot>
  /**
   * What a harness agent offers the tools it calls, for a route. The bridge reads
   * `agent.session.requestHeader()?.config`, then `agent.options`.
   */
  agentFor(route: { provider: string; model: string }): unknown
}

const VISION = { provider: 'kit', model: 'vision' }
const TEXT_ONLY = { provider: 'kit', model: 'text-only' }
const MODELS: DshModel[] = [
  { ...VISION, inputModalities: ['text', 'image'] },
  { ...TEXT_ONLY, inputModalities: ['text'] },
]

export function createDshAdapter(host: DshHost): ClientAdapter {
  return {
    name: 'mcp-bridge (cordis plugin) hosted by dsh-tools ToolRuntime',
    routes: { vision: VISION, 'text-only': TEXT_ONLY },
    async start(target, config) {
      const root = await host.createRoot(MODELS)
      const resolved = pluginConfig(target, offerScenarioAsks(root.ctx as never, config))
      const serverName = resolved.serverName as string
      // The instance's connection as it tells it (the plugin's public mcp/state event), from before it starts.
      const connection: Connection = { state: 'stopped' }
      root.ctx.on('mcp/state', (...args: unknown[]) => {
        const event = args[0] as bridge.McpStateEvent
        if (event.serverName !== serverName) return
        connection.state = event.state.kind
        connection.pid = event.pid
      })
      // The harness offers no sign-in of its own: like the reference host, the kit plays the person.
      provideSignIn(root.ctx as never, resolved)
      const fiber = root.ctx.plugin(bridge, resolved)
      try {
        await fiber
      } catch (error) {
        root.logs.push(`[error] load failed: ${createRedactor(configSecrets(resolved as never))(String(error))}`)
      }
      return session(host, root, fiber, resolved, serverName, connection)
    },
    async registerForeign(current, publicName) {
      const { root } = current as DshSession
      await root.ctx.plugin({
        inject: ['tools'],
        apply: (foreign: { get(name: 'tools'): DshToolRuntime }) =>
          void foreign.get('tools').register({
            name: publicName,
            description: 'a foreign tool',
            parameters: { type: 'object' },
            output: { schema: {}, render: (_args: unknown, value: unknown) => [{ type: 'text', text: String(value) }] },
            execute: async () => 'foreign',
          }),
      })
    },
    async rejectsDuplicate(current, target, config) {
      const { root } = current as DshSession
      return secondInstanceRejected(() => root.ctx.plugin(bridge, pluginConfig(target, config)))
    },
  }
}

interface DshSession extends ClientSession {
  root: DshRoot
}


interface Connection {
  state: string
  pid?: number
}

function session(host: DshHost, root: DshRoot, fiber: DshFiber, config: Record<string, unknown>, serverName: string, connection: Connection): DshSession {
  const runtime = () => root.ctx.get('tools') as DshToolRuntime | undefined
  // Only this instance's tools: other plugins of the host (a squatter) are not the client's.
  const ownTools = () =>
    (runtime()?.schemas() ?? []).flatMap((schema) => {
      const source = runtime()?.get(schema.name)?.source
      return source?.serverName === serverName ? [{ ...schema, rawName: source.rawName ?? schema.name }] : []
    })
  let afterDispose: ReturnType<typeof ownTools> | undefined
  let calls = 0
  return {
    root,
    tools: () => afterDispose ?? ownTools(),
    onToolsChange: (listener) => root.ctx.on('tools/change', () => listener()),
    call: async (publicName, args, options) => {
      const tools = runtime()
      if (!tools) return { isError: true, code: 'UNKNOWN_TOOL', content: [{ type: 'text', text: 'Error: the tools service is gone' }] }
      const agent = routeAgent(host, options.route)
      const result = await tools.execute({
        callId: `kit-${++calls}`,
        name: publicName,
        arguments: args,
        // ToolRuntime requires a signal.
        signal: options.signal ?? new AbortController().signal,
        ...(agent ? { agent } : {}),
      })
      return toOutcome(result)
    },
    state: () => connection.state,
    // Of the verbs beyond tools only setRoots, a configuration update as the reference host makes
    // it; the mcpServers verbs are checked here by hosts/dsh/beyond-host.mjs instead.
    ask: async (request) => {
      if (request.op !== 'setRoots' || !fiber.update) return { ok: false, unsupported: true, error: `this host's adapter offers only setRoots beyond tools, not "${request.op}"` }
      const { outcome, config: next } = await setRootsThroughConfig(fiber as { update(config: Record<string, unknown>): unknown }, config, request.roots)
      config = next
      return outcome
    },
    logs: () => root.logs,
    pids: () => (connection.pid === undefined ? [] : [connection.pid]),
    attachmentCount: () => (afterDispose ? 0 : root.attachmentCount()),
    dispose: async () => {
      await fiber.dispose()
      afterDispose = ownTools()
      await root.dispose()
    },
  }
}

function routeAgent(host: DshHost, route: ModelRoute): unknown {
  return route ? host.agentFor(route) : undefined
}

/**
 * ToolRuntime's result in the kit's terms. Its failures carry a code only in `error.info`, which
 * it fills for its own HarnessErrors (UNKNOWN_TOOL, ABORTED, ...), not for a tool's errors.
 */
function toOutcome(result: DshResult): CallOutcome {
  const content = result.content.map((block): CallOutcome['content'][number] => {
    if (block.type === 'text' && 'text' in block) return { type: 'text', text: block.text }
    if (block.type === 'image' && 'attachment' in block) return { type: 'image', ref: `${block.attachment.mediaType}:${block.attachment.bytes}` }
    return { type: 'text', text: `[${block.type} block]` }
  })
  if (!result.isError) return { isError: false, content, value: result.value }
  const code = result.error.info?.code
  return code === undefined ? { isError: true, content } : { isError: true, code, content }
}
