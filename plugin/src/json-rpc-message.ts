import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/**
 * The SDK's own rule for what a JSON-RPC message is (`JSONRPCMessageSchema`), with a shortcut for
 * the message a client reads most: a result, `{ jsonrpc, id, result }` and nothing else. The
 * schema tries the request and notification shapes before it gets there, a few microseconds on
 * every answer (issue 20); the shortcut accepts only what the schema accepts (a property test holds
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
