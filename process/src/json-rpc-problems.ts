import { isRecord } from './records.ts'

/**
 * Pure: what is wrong with a peer's JSON-RPC 2.0 line that a strict reader refuses, when it still
 * names a request (an answer to one of ours, or a request of the peer's), so that the request can
 * be failed or answered at once instead of being left to a timeout.
 */

/**
 * What is wrong with a parsed line that the MCP SDK refuses, when it still names a request: it
 * has an `id` and no `method`, so it is meant as that request's answer. The SDK would drop it and
 * leave the request to its timeout; a transport answers the request with this error instead, at
 * once. Undefined for anything that is not such an answer.
 */
export function refusedAnswer(value: unknown): { id: string | number; problem: string } | undefined {
  if (!isRecord(value)) return undefined
  const { id } = value
  if ('method' in value || (typeof id !== 'string' && typeof id !== 'number')) return undefined
  return { id, problem: answerProblem(value) }
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
