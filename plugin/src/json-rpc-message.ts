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

/** The JSON-RPC error a transport delivers in place of a refused answer: it fails that request alone, at once. */
export function malformedAnswer(refused: { id: string | number; problem: string }): JSONRPCMessage {
  const message = `the server's answer is not a valid JSON-RPC response: ${refused.problem}`
  return { jsonrpc: '2.0', id: refused.id, error: { code: ErrorCode.InternalError, message, data: { [MALFORMED_MARK]: true } } }
}
