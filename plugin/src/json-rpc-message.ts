import { isRecord } from '@mcp-bridge/process'
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/**
 * The SDK's own rule for what a JSON-RPC message is (`JSONRPCMessageSchema`), with a shortcut for
 * the message a client reads most: a result, `{ jsonrpc, id, result }` and nothing else. The
 * schema tries the request and notification shapes before it gets there, a few microseconds on
 * every answer; the shortcut accepts only what the schema accepts (a property test holds
 * it to that) and leaves everything else, `_meta` included, to the schema.
 */
export function isPlainResult(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null) return false
  const message = value as Record<string, unknown>
  const { result, id } = message
  return (
    message.jsonrpc === '2.0' &&
    (typeof id === 'string' || Number.isSafeInteger(id)) &&
    typeof result === 'object' &&
    result !== null &&
    !Array.isArray(result) &&
    !Object.hasOwn(result, '_meta') &&
    Object.keys(message).length === 3
  )
}

/** As the SDK's `deserializeMessage`: parses a line, throws what it would throw for one it refuses. */
export function deserializeMessage(text: string): JSONRPCMessage {
  const value: unknown = JSON.parse(text)
  return isPlainResult(value) ? value : JSONRPCMessageSchema.parse(value)
}

/** Whether the SDK would accept `value` as a JSON-RPC message. */
export function isMessage(value: unknown): value is JSONRPCMessage {
  return isPlainResult(value) || JSONRPCMessageSchema.safeParse(value).success
}

/** Room for the JSON-RPC envelope around a result of `maxResultBytes` (the stdio reader allows the same). */
export const ENVELOPE_BYTES = 1024 * 1024

/** Marks the JSON-RPC error a transport puts in place of an answer the SDK would refuse (see refusedAnswer). */
export const MALFORMED_MARK = 'mcp-bridge/malformed'

/**
 * What is wrong with a parsed line that the SDK refuses, when it still names a request: it has an
 * `id` and no `method`, so it is meant as that request's answer. The SDK would drop it and leave
 * the request to its timeout; a transport answers the request with this error instead, at once.
 * Undefined for anything that is not such an answer.
 */
export function refusedAnswer(value: unknown): { id: string | number; problem: string } | undefined {
  if (!isRecord(value)) return undefined
  const { id } = value
  if ('method' in value || (typeof id !== 'string' && typeof id !== 'number')) return undefined
  return { id, problem: answerProblem(value) }
}

/** The JSON-RPC error a transport delivers in place of a refused answer: it fails that request alone, at once. */
export function malformedAnswer(refused: { id: string | number; problem: string }): JSONRPCMessage {
  const message = `the server's answer is not a valid JSON-RPC response: ${refused.problem}`
  return { jsonrpc: '2.0', id: refused.id, error: { code: ErrorCode.InternalError, message, data: { [MALFORMED_MARK]: true } } }
}

function answerProblem(message: Record<string, unknown>): string {
  if (message.jsonrpc !== '2.0') return 'its "jsonrpc" is not "2.0"'
  const hasResult = 'result' in message
  const hasError = 'error' in message
  if (hasResult && hasError) return 'it has both "result" and "error"'
  if (hasResult) return `its "result" is ${kindOf(message.result)}, not an object`
  if (hasError) return '"error" is not an object with an integer "code" and a string "message"'
  return 'it has neither "result" nor "error"'
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}

/**
 * What is wrong with a parsed line the SDK refuses that is meant as a request of the server's: it
 * has a `method` and an `id` member. JSON-RPC 2.0 answers such a line with -32600 Invalid Request,
 * under its id when that is usable (a string, or an integer JavaScript holds exactly), else under
 * null; the SDK would drop it and leave the server waiting. Undefined for anything else (a
 * notification, with no id, gets no answer).
 */
export function invalidRequest(value: unknown): { id: string | number | null; problem: string } | undefined {
  if (!isRecord(value) || !('method' in value) || !('id' in value)) return undefined
  const { id, method, params } = value
  const usable = typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))
  let problem: string
  if (!usable) problem = `its id (${quoted(id)}) is not a string or an integer within 2^53`
  else if (value.jsonrpc !== '2.0') problem = 'its "jsonrpc" is not "2.0"'
  else if (typeof method !== 'string') problem = 'its "method" is not a string'
  else if (params !== undefined && !isRecord(params)) problem = `its "params" is ${kindOf(params)}, not an object`
  else problem = 'it is not a request the client can read'
  return { id: usable ? id : null, problem }
}

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}
