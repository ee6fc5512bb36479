import { ProtocolErrorCode } from '@modelcontextprotocol/client'
import { quoteUntrusted, startDeadline } from '@mcp-bridge/process'
import type { McpSamplingService, SamplingReply, SamplingRequest } from './contract.ts'
import { errorMessage } from '../errors.ts'
import { untilAborted } from '@mcp-bridge/process'
import { AskRefusal } from './elicitation.ts'
import type { SamplingConfig } from './sampling-config.ts'
import type { SamplingLimits } from './sampling-limits.ts'
import { checkSampling, type Quote } from './sampling-request.ts'

/**
 * The JSON-RPC code of a request the client chose not to serve: the spec's own example of a
 * sampling error ("User rejected sampling request", client/sampling §Error Handling). Used for
 * the host's refusal and for a request over the rate or concurrency caps alike: each is the
 * client's policy, not a fault of the request, and the message says which.
 */
export const SAMPLING_REFUSED = -1

/** The host's reason for a failure, as a server is told it: a sentence. */
const MAX_REASON_CHARS = 1_000
/** A model's name, as a server is told it. */
const MAX_MODEL_CHARS = 256
const STOP_REASONS = new Set(['endTurn', 'maxTokens', 'stopSequence'])

export interface SamplingScope {
  serverName: string
  config: SamplingConfig
  /** The host's service, looked up on each ask: it may have left since the connection opened. */
  service(): McpSamplingService | undefined
  limits: SamplingLimits
  quote: Quote
  /** How long one ask may take, approval included: the ceiling of the call it belongs to. */
  timeoutMs: number
  /** Aborted when the connection closes: its asks end with it. */
  closed: AbortSignal
}

export interface SamplingResult {
  [key: string]: unknown
  role: 'assistant'
  content: { type: 'text'; text: string }
  model: string
  stopReason: string
}

/**
 * One `sampling/createMessage`, however it arrived (a legacy server request or a 2026-07-28
 * input request). In order: the request is checked (-32602 for what the bridge cannot pass on),
 * admitted under the caps (-1 past them, at once), approved by the host's hook (-1 when
 * refused), then answered by the host's model within `timeoutMs` (-32603 when it fails). The
 * reply is cut to `maxReplyChars` before it is sent.
 */
export async function answerSampling(params: Record<string, unknown>, signal: AbortSignal, scope: SamplingScope): Promise<SamplingResult> {
  const checked = checkSampling(params, scope.config, scope.quote)
  if (!checked.ok) throw new AskRefusal(ProtocolErrorCode.InvalidParams, `sampling/createMessage: ${checked.problem}`)
  const service = scope.service()
  if (!service) throw new AskRefusal(SAMPLING_REFUSED, 'sampling/createMessage refused: the host no longer offers a model service')
  const admission = scope.limits.admit()
  if (!admission.ok) throw new AskRefusal(SAMPLING_REFUSED, `sampling/createMessage refused: ${admission.why}`)
  // process/src/deadline.ts: one deadline for approval and answer, cleared once answered.
  const deadline = startDeadline(scope.timeoutMs, [signal, scope.closed])
  const request: SamplingRequest = { serverName: scope.serverName, ...checked.request, signal: deadline.signal }
  const host = <T>(step: () => T | Promise<T>, doing: string): Promise<T> =>
    untilAborted(Promise.resolve().then(step), deadline.signal, () => deadline.signal.reason).catch((error: unknown) => {
      const reason = deadline.signal.aborted ? `it stopped waiting (${errorMessage(deadline.signal.reason)})` : errorMessage(error)
      throw new AskRefusal(ProtocolErrorCode.InternalError, `sampling/createMessage failed while the host ${doing}: ${scope.quote(reason, MAX_REASON_CHARS)}`)
    })
  try {
    if (service.approve && (await host(() => service.approve!(request), 'approved it')) !== true) {
      throw new AskRefusal(SAMPLING_REFUSED, `sampling/createMessage refused by the host for server "${scope.serverName}"`)
    }
    return reply(await host(() => service.createMessage(request), 'ran the model'), scope.config.maxReplyChars)
  } finally {
    deadline.clear()
    admission.release()
  }
}

/** The host's reply as the server gets it: text cut to the cap, a bounded model name, a known stop reason. */
function reply(answer: SamplingReply, maxReplyChars: number): SamplingResult {
  const text = (answer as { text?: unknown } | undefined)?.text
  if (typeof text !== 'string') throw new AskRefusal(ProtocolErrorCode.InternalError, 'sampling/createMessage failed: the host\'s model answered with no text')
  const model = typeof answer.model === 'string' && answer.model !== '' ? answer.model : 'unknown'
  const cut = text.length > maxReplyChars
  const stopReason = cut ? 'maxTokens' : answer.stopReason !== undefined && STOP_REASONS.has(answer.stopReason) ? answer.stopReason : 'endTurn'
  return {
    role: 'assistant',
    content: { type: 'text', text: cut ? quoteUntrusted(text, maxReplyChars, (t) => t) : text },
    model: model.slice(0, MAX_MODEL_CHARS),
    stopReason,
  }
}
