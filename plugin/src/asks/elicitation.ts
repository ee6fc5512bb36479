import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client'
import type { ElicitationAnswer, ElicitationMode, ElicitationRequest, ElicitationValue, McpElicitationService } from './contract.ts'
import { errorMessage } from '../errors.ts'
import { untilAborted } from '@mcp-bridge/process'
import { startDeadline } from '@mcp-bridge/process'
import type { AskQueue } from './ask-queue.ts'
import { checkRequestedSchema, completeAnswer, type Quote } from './elicitation-form.ts'

/** The server's message as a person reads it: a paragraph, not a document. */
export const MAX_MESSAGE_CHARS = 2_000
/** A URL longer than this is no link a person examines before opening it. */
export const MAX_URL_CHARS = 2_048

export interface ElicitationScope {
  serverName: string
  /** The host's service, looked up on each ask: it may have left since the connection opened. */
  service(): McpElicitationService | undefined
  /** The modes the capability declared on this connection. */
  modes: readonly ElicitationMode[]
  quote: Quote
  queue: AskQueue
  /** How long one ask may wait for its answer: the ceiling of the call it belongs to. */
  timeoutMs: number
  /** Aborted when the connection closes: its asks end with it. */
  closed: AbortSignal
  /** An ask was declined because too many were waiting. */
  onOverflow(): void
}

/**
 * The bridge's own refusal of an ask: a legacy server gets it as the JSON-RPC error of its
 * request; a 2026-07-28 call whose input request it refused ends with it (ask-failure.ts).
 */
export class AskRefusal extends ProtocolError {}

export type ElicitResult = { action: 'accept'; content?: Record<string, ElicitationValue> } | { action: 'decline' } | { action: 'cancel' }

/**
 * One `elicitation/create`, however it arrived (a legacy server request or a 2026-07-28 input
 * request): the SDK has checked its shape and that its mode was declared. A request the bridge
 * cannot present is refused (-32602) with the reason; with no service left it is declined, as a
 * client that asks nobody may; an ask that outlives `timeoutMs`, its request or the connection is
 * cancelled. The host's accepted content gets its defaults and is checked before it is sent.
 */
export async function answerElicitation(params: Record<string, unknown>, signal: AbortSignal, scope: ElicitationScope): Promise<ElicitResult> {
  const base = { serverName: scope.serverName, message: scope.quote(typeof params.message === 'string' ? params.message : '', MAX_MESSAGE_CHARS) }
  const mode = params.mode === 'url' ? 'url' : 'form'
  const form = mode === 'form' ? checkRequestedSchema(params.requestedSchema, scope.quote) : undefined
  if (form && !form.ok) throw new AskRefusal(ProtocolErrorCode.InvalidParams, `elicitation/create: ${form.problem}`)
  const url = mode === 'url' ? checkUrl(params.url) : undefined
  if (typeof url === 'string') throw new AskRefusal(ProtocolErrorCode.InvalidParams, `elicitation/create: ${url}`)
  const service = scope.service()
  if (!service) return { action: 'decline' }
  // One deadline for the whole ask, cleared once it is answered (process/src/deadline.ts: why not
  // AbortSignal.timeout).
  const deadline = startDeadline(scope.timeoutMs, [signal, scope.closed])
  const ask = deadline.signal
  try {
    const request: ElicitationRequest = form?.ok ? { ...base, mode: 'form', fields: form.fields, signal: ask } : { ...base, mode: 'url', url: url!.href, domain: url!.host, signal: ask }
    const queued = scope.queue.run(async () => (ask.aborted ? undefined : untilAborted(Promise.resolve(service.elicit(request)), ask, () => ask.reason)))
    // More asks waiting than a person can take in: this one is declined without asking.
    if (!queued) {
      scope.onOverflow()
      return { action: 'decline' }
    }
    let answer: ElicitationAnswer | undefined
    try {
      answer = await queued
    } catch (error) {
      if (ask.aborted) return { action: 'cancel' }
      throw new AskRefusal(ProtocolErrorCode.InternalError, `the host could not ask: ${scope.quote(errorMessage(error), MAX_MESSAGE_CHARS)}`)
    }
    if (answer === undefined || ask.aborted) return { action: 'cancel' }
    return checkedAnswer(answer, form?.ok ? form.fields : undefined)
  } finally {
    deadline.clear()
  }
}

function checkedAnswer(answer: ElicitationAnswer, fields: Parameters<typeof completeAnswer>[0] | undefined): ElicitResult {
  const action: unknown = (answer as { action?: unknown } | undefined)?.action
  if (action === 'decline' || action === 'cancel') return { action }
  if (action !== 'accept') throw new AskRefusal(ProtocolErrorCode.InternalError, 'the host answered with no action of accept, decline or cancel')
  // URL mode: accepting is consent to open the URL; no content travels back (client/elicitation).
  if (!fields) return { action: 'accept' }
  const checked = completeAnswer(fields, (answer as { content?: unknown }).content)
  if (!checked.ok) throw new AskRefusal(ProtocolErrorCode.InternalError, `the host's answer does not fit the form: ${checked.problem}`)
  return { action: 'accept', content: checked.content }
}

/** The URL a person is asked to open: http(s) only, and short enough to be read in full. */
function checkUrl(raw: unknown): URL | string {
  if (typeof raw !== 'string' || raw.length > MAX_URL_CHARS || !URL.canParse(raw)) return `url must be an absolute http(s) URL of at most ${MAX_URL_CHARS} characters`
  const url = new URL(raw)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `url must be an http(s) URL, not ${url.protocol.slice(0, 16)}`
  return url
}
