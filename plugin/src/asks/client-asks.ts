import type { Client } from '@modelcontextprotocol/client'
import { quoteUntrusted, type Redact } from '@mcp-bridge/process'
import type { Config } from '../config.ts'
import type { ElicitationMode, McpElicitationService, McpSamplingService } from './contract.ts'
import { jsonEqual } from '@mcp-bridge/process'
import { AskQueue } from './ask-queue.ts'
import { answerElicitation } from './elicitation.ts'
import { listRoots } from './roots.ts'
import { answerSampling } from './sampling.ts'
import { SamplingLimits } from './sampling-limits.ts'

/**
 * What a server may ask the bridge for (elicitation, roots, sampling), one path per ask whichever way it
 * arrives: a legacy server request, or an `inputRequests` entry of a 2026-07-28 `input_required`
 * result, which the SDK client hands to the same registered handler before it retries the call
 * with the answers and the server's `requestState` echoed (SEP-2322). The capabilities declared
 * are exactly what is offered: elicitation when the host's `mcpElicitation` service is there as
 * the connection opens (its modes), roots when `roots` lists any, sampling when `sampling.enabled`
 * and the host's `mcpSampling` service is there as the connection opens.
 */

/** Asks that may wait behind the one a person is answering, per connection (ask-queue.ts). */
export const MAX_WAITING_ASKS = 4

interface HostLookups {
  elicitation(): McpElicitationService | undefined
  sampling(): McpSamplingService | undefined
}
const lookups = new WeakMap<object, HostLookups>()
/** Sampling's caps hold per instance, across its reconnections: a reconnect does not refill them. */
const samplingLimits = new WeakMap<object, SamplingLimits>()
/** The live connections of one instance's config, to tell of a roots change (updateRootsInPlace). */
const live = new WeakMap<object, Set<Client>>()

/**
 * Asks an instance has taken, of any kind, from any of its connections. features/handle.ts holds a
 * read by its cache hint only when none came while it was in flight: the SDK answers a 2026-07-28
 * `input_required` round inside the one request, and a result of such a retry "MUST NOT be cached"
 * (server/utilities/caching).
 */
const taken = new WeakMap<object, number>()
export const asksTaken = (config: object): number => taken.get(config) ?? 0
const take = (config: object) => void taken.set(config, asksTaken(config) + 1)

/** index.ts binds the host's optional services to the instance's config, as oauth/host-auth.ts does. */
export function bindHostAsks(config: object, elicitation: () => McpElicitationService | undefined, sampling: () => McpSamplingService | undefined = () => undefined): void {
  lookups.set(config, { elicitation, sampling })
}

export interface ClientAsks {
  /** For the Client's options: what this connection offers, exactly. */
  capabilities: { elicitation?: Partial<Record<ElicitationMode, Record<string, never>>>; roots?: { listChanged: true }; sampling?: Record<string, never> }
  /** Whether anything is offered: only then are `input_required` results fulfilled. */
  offered: boolean
  /** Registers the handlers on the client, before it connects. */
  register(client: Client): void
  /** The connection closed: pending asks are cancelled. */
  close(): void
}

export function clientAsks(config: Config, redact: Redact, notice: (message: string) => void): ClientAsks {
  const hostServices = lookups.get(config)
  const lookup = () => hostServices?.elicitation()
  const sampling = () => hostServices?.sampling()
  const modes = modesOf(lookup())
  const closed = new AbortController()
  const queue = new AskQueue(MAX_WAITING_ASKS)
  let client: Client | undefined
  let overflowed = false
  const onOverflow = () => {
    if (overflowed) return
    overflowed = true
    notice(`the server sent more asks than the host can take in (one answered, ${MAX_WAITING_ASKS} waiting); later ones are declined without asking (said once per connection)`)
  }
  const capabilities: ClientAsks['capabilities'] = {
    ...(modes.length > 0 ? { elicitation: Object.fromEntries(modes.map((mode) => [mode, {}])) } : {}),
    ...(config.roots?.length ? { roots: { listChanged: true as const } } : {}),
    ...(config.sampling?.enabled && typeof sampling()?.createMessage === 'function' ? { sampling: {} } : {}),
  }
  return {
    capabilities,
    offered: Object.keys(capabilities).length > 0,
    register(target) {
      client = target
      if (capabilities.elicitation) {
        const scope = { serverName: config.serverName, service: lookup, modes, queue, timeoutMs: config.maxTotalTimeoutMs, closed: closed.signal, onOverflow, quote: (text: string, max: number) => quoteUntrusted(text, max, redact) }
        target.setRequestHandler('elicitation/create', (request, ctx) => (take(config), answerElicitation(request.params as Record<string, unknown>, ctx.mcpReq.signal, scope)))
      }
      // Read at each ask: a configuration update may have changed them in place.
      if (capabilities.roots) target.setRequestHandler('roots/list', () => (take(config), listRoots(config.roots ?? [])))
      if (capabilities.sampling) {
        const limits = samplingLimits.get(config) ?? new SamplingLimits(config.sampling)
        samplingLimits.set(config, limits)
        const scope = { serverName: config.serverName, config: config.sampling, service: sampling, limits, timeoutMs: config.maxTotalTimeoutMs, closed: closed.signal, quote: (text: string, max: number) => quoteUntrusted(text, max, redact) }
        target.setRequestHandler('sampling/createMessage', (request, ctx) => (take(config), answerSampling(request.params as Record<string, unknown>, ctx.mcpReq.signal, scope)))
      }
      const set = live.get(config) ?? new Set()
      live.set(config, set.add(target))
    },
    close() {
      closed.abort(new Error('the connection closed'))
      if (client) live.get(config)?.delete(client)
    },
  }
}

/** The modes a service offers, form when it names none; unknown ones are not declared. */
function modesOf(service: McpElicitationService | undefined): ElicitationMode[] {
  if (!service || typeof service.elicit !== 'function') return []
  const named = Array.isArray(service.modes) ? service.modes : ['form']
  return (['form', 'url'] as const).filter((mode) => named.includes(mode))
}

/**
 * A configuration update that changes only `roots` (present before and after) is applied in
 * place: the live connections keep their sessions and each server is sent
 * notifications/roots/list_changed, as the declared `roots.listChanged` promises. Any other change
 * (roots added or removed change the capabilities) is for a restart: false.
 */
export function updateRootsInPlace(current: Config, next: Config): boolean {
  if (!current.roots?.length || !next.roots?.length) return false
  if (!jsonEqual({ ...current, roots: undefined }, { ...next, roots: undefined })) return false
  if (jsonEqual(current.roots, next.roots)) return true
  current.roots = next.roots
  for (const client of live.get(current) ?? []) {
    // A connection that is closing may refuse: its successor lists the roots afresh.
    client.sendRootsListChanged().catch(() => undefined)
  }
  return true
}
