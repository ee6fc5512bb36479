import { isRecord } from '@mcp-bridge/process'
import type { ModelInfo, ModelInfoService, ModelRoute, ToolExecution } from './host-contract.ts'

/**
 * How each host tells the bridge which model a call is made for, and how it answers what that
 * model accepts. Hosts are told apart by what they hand over, never by package name:
 *
 * - the reference registry puts `route: { provider, model }` on the execution, and its `llm`
 *   service answers `resolveModelInfo(route)`;
 * - the harness' ToolRuntime puts the calling `agent` on the execution (the route of its latest
 *   request is `agent.session.requestHeader()?.config`, its configured one `agent.options`), and
 *   its `llm` (LlmRuntime) answers `resolveModelInfo(provider, model, signal)`.
 */

/** The calling model's route, or undefined when the execution does not say. */
export function routeOf(exec: ToolExecution): ModelRoute | undefined {
  const direct = asRoute(exec.route)
  if (direct) return direct
  const agent: unknown = exec.agent
  if (!isRecord(agent)) return undefined
  // The route of the agent's latest request wins over its configured options, as in the seed:
  // a session may have switched models since the agent was created.
  let requested: unknown
  try {
    const session = agent.session
    requested = isRecord(session) && typeof session.requestHeader === 'function' ? (session.requestHeader() as { config?: unknown } | undefined)?.config : undefined
  } catch {
    requested = undefined
  }
  const header = isRecord(requested) ? requested : {}
  const options = isRecord(agent.options) ? agent.options : {}
  return asRoute({ provider: header.provider ?? options.provider, model: header.model ?? options.model })
}

/**
 * Asks the host's `llm` service what `route` accepts. A `resolveModelInfo` that declares two or
 * more parameters takes `(provider, model, signal)` (the harness' LlmRuntime); one that declares
 * fewer takes the route object (the reference ModelCatalog).
 */
export function resolveModelInfo(llm: ModelInfoService, route: ModelRoute, signal: AbortSignal): Promise<ModelInfo> {
  const resolve = llm.resolveModelInfo as (...args: unknown[]) => Promise<ModelInfo>
  return resolve.length >= 2 ? resolve.call(llm, route.provider, route.model, signal) : resolve.call(llm, route)
}

function asRoute(value: unknown): ModelRoute | undefined {
  if (!isRecord(value)) return undefined
  const { provider, model } = value
  return typeof provider === 'string' && provider && typeof model === 'string' && model ? { provider, model } : undefined
}
