/** Pure classification of messages arriving from the server. */

export type Incoming =
  | { kind: 'response'; id: string | number; message: Record<string, unknown> }
  | { kind: 'request'; id: string | number; method: string; message: Record<string, unknown> }
  | { kind: 'notification'; method: string; message: Record<string, unknown> }
  /** A response that can answer nothing: its id is null or missing. */
  | { kind: 'stray'; message: Record<string, unknown> }
  | { kind: 'invalid'; reason: string }

export function classify(value: unknown): Incoming {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'invalid', reason: 'not a JSON object' }
  const message = value as Record<string, unknown>
  if (message.jsonrpc !== '2.0') return { kind: 'invalid', reason: 'missing "jsonrpc": "2.0"' }
  const id = message.id
  const hasId = typeof id === 'string' || typeof id === 'number'
  if (typeof message.method === 'string') {
    if (hasId) return { kind: 'request', id, method: message.method, message }
    if (id === undefined) return { kind: 'notification', method: message.method, message }
    return { kind: 'invalid', reason: 'request id must be a string or number' }
  }
  if ('result' in message || 'error' in message) {
    if (hasId) return { kind: 'response', id, message }
    // Legal for an unparseable request, but the harness sends none, so it answers nothing.
    return { kind: 'stray', message }
  }
  return { kind: 'invalid', reason: 'neither a request, a notification nor a response' }
}
