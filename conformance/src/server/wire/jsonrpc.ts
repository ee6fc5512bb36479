/** Pure classification of messages arriving from the server, and what a response answers. */
import type { HttpMeta, RpcOutcome, WireEntry } from './types.ts'

export type Incoming =
  | { kind: 'response'; id: string | number; message: Record<string, unknown> }
  | { kind: 'request'; id: string | number; method: string; message: Record<string, unknown> }
  | { kind: 'notification'; method: string; message: Record<string, unknown> }
  /** A response that can answer nothing: its id is null or missing. */
  | { kind: 'stray'; message: Record<string, unknown> }
  | { kind: 'invalid'; reason: string }

/**
 * By shape alone. A wrong or missing "jsonrpc" member is the ledger's to report (jsonrpc/version),
 * and a response with both or neither of result and error is jsonrpc/result-or-error's: classifying
 * such messages by what they plainly are keeps every other check from failing over the same fault.
 */
export function classify(value: unknown): Incoming {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'invalid', reason: 'not a JSON object' }
  const message = value as Record<string, unknown>
  const id = message.id
  const hasId = typeof id === 'string' || typeof id === 'number'
  if (typeof message.method === 'string') {
    if (hasId) return { kind: 'request', id, method: message.method, message }
    if (id === undefined) return { kind: 'notification', method: message.method, message }
    return { kind: 'invalid', reason: 'request id must be a string or number' }
  }
  if ('result' in message || 'error' in message || 'id' in message) {
    if (hasId) return { kind: 'response', id, message }
    // Legal for an unparseable request, but the harness sends none, so it answers nothing.
    return { kind: 'stray', message }
  }
  return { kind: 'invalid', reason: 'neither a request, a notification nor a response' }
}

/**
 * Whether a response id answers the kit's request `id`. The kit's ids are numbers; a string that
 * spells one is read as its answer, as the SDK's client reads it (jsonrpc/response-ids reports it).
 */
export function answers(responseId: string | number, id: number): boolean {
  return responseId === id || responseId === String(id)
}

/** The outcome a response gives its request; a result with an error, or neither, is not an answer. */
export function responseOutcome(message: Record<string, unknown>, wire: WireEntry[], http?: HttpMeta): RpcOutcome {
  const hasResult = 'result' in message
  const hasError = 'error' in message
  const meta = http ? { http } : {}
  if (hasResult === hasError) {
    const reason = hasResult ? 'carries both a result and an error' : 'carries neither a result nor an error'
    return { kind: 'malformed', reason, envelope: 'jsonrpc/result-or-error', wire, ...meta }
  }
  if (hasError) {
    const error = (typeof message.error === 'object' && message.error !== null ? message.error : {}) as Record<string, unknown>
    return { kind: 'error', error: { code: error.code, message: error.message, data: error.data }, wire, ...meta }
  }
  return { kind: 'result', result: message.result, wire, ...meta }
}
