import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client'
import { BridgeError, errorMessage } from './errors.ts'
import { MALFORMED_MARK } from './json-rpc-message.ts'

/**
 * What ended a failed request, told apart in one place for plain calls and task calls (an abort
 * and the call's own ceiling are the caller's to name first: only it knows it aborted). The SDK
 * client raises a server's JSON-RPC error as a ProtocolError and its own verdicts (a timeout, a
 * closed connection, an HTTP status) as SdkError, so a server that answers -32000 or -32001 is
 * never mistaken for either verdict.
 * - `auth`: HTTP 401/403; `credentials`: the authorization server refused the grant;
 * - `refused-answer`: the bridge refused what the server sent (over limits, or not JSON-RPC);
 * - `timeout`: the SDK's own timeout of a request the bridge sent;
 * - `lost`: the server can no longer be reached;
 * - `server-answer`: a JSON-RPC error response, whatever its code: the session is fine;
 * - `other`: anything else.
 */
export type RequestFailure = 'auth' | 'credentials' | 'refused-answer' | 'timeout' | 'lost' | 'server-answer' | 'other'

/** Marks the JSON-RPC error the HTTP transport answers a request with when its stream ended unanswered (http-transport.ts). */
export const STREAM_ENDED_MARK = 'mcp-bridge/stream-ended'

/** Marks the JSON-RPC error a transport puts in place of an oversized answer (stdio-transport.ts, response-limits.ts). */
export const OVERSIZED_MARK = 'mcp-bridge/oversized'

/**
 * A reply or a notification of ours that did not reach the server: its POST failed, or it was
 * dropped because too many replies were waiting. Not the server being gone (a request of ours
 * would say so), and not a TypeError, so that nothing mistakes it for a lost connection.
 */
export class UndeliveredMessageError extends Error {
  override name = 'UndeliveredMessageError'
  constructor(
    message: string,
    /** True when it was never sent: the queue of replies was full. */
    readonly dropped: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export function classifyFailure(error: unknown): RequestFailure {
  if (isAuthFailure(error)) return 'auth'
  if (isCredentialRefusal(error)) return 'credentials'
  if (isRefusedAnswer(error)) return 'refused-answer'
  if (isSdkTimeout(error)) return 'timeout'
  if (isConnectionLoss(error)) return 'lost'
  if (error instanceof ProtocolError) return 'server-answer'
  return 'other'
}

/** The server refused our credentials; a new session would be refused the same way. */
export function isAuthFailure(error: unknown): error is SdkHttpError {
  return error instanceof SdkHttpError && (error.status === 401 || error.status === 403)
}

/**
 * The SDK's error classes for a refused credential (OAuthError, UnauthorizedError), registered by
 * auth-renewal.ts as it loads. Only the OAuth modules, loaded with the first HTTP connection, can
 * throw them, so a stdio-only bridge never loads the SDK's auth modules to ask.
 */
const credentialRefusals = new Set<abstract new (...args: never[]) => Error>()

export function recognizeCredentialRefusals(...classes: Array<abstract new (...args: never[]) => Error>): void {
  for (const refusal of classes) credentialRefusals.add(refusal)
}

/** The authorization server refused the grant, or the server refused a fresh token: retrying the same way cannot help. */
export function isCredentialRefusal(error: unknown): boolean {
  for (const refusal of credentialRefusals) if (error instanceof refusal) return true
  return false
}

/**
 * The request failed because the bridge refused its answer: over limits.maxResultBytes (see
 * response-limits.ts), or not a JSON-RPC response at all (json-rpc-message.ts' refusedAnswer).
 */
export function isRefusedAnswer(error: unknown): boolean {
  if (BridgeError.is(error)) return error.code === 'INVALID_RESULT'
  return marked(error, OVERSIZED_MARK) || marked(error, MALFORMED_MARK)
}

/** The SDK's own timeout of a request (its data says `{ timeout }`): never a server's answer. */
export function isSdkTimeout(error: unknown): error is SdkError & { data: { timeout: number } } {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout && typeof (error.data as { timeout?: unknown } | undefined)?.timeout === 'number'
}

/** Transport errors (not request errors) that mean the server can no longer be reached. */
export function isServerGone(error: unknown): boolean {
  return (error instanceof TypeError && /fetch failed/i.test(error.message)) || /Failed to reconnect SSE stream/.test(errorMessage(error))
}

/** Failures that mean the server is gone rather than that one request went wrong. */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof ProtocolError) return marked(error, STREAM_ENDED_MARK)
  if (error instanceof SdkHttpError) return error.status === 404
  if (error instanceof SdkError) return error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected
  if (error instanceof TypeError) return /fetch failed|Failed to fetch|terminated/i.test(error.message)
  return /Not connected/.test(errorMessage(error))
}

/** A JSON-RPC error the bridge put in place of an answer, with `mark` true in its data. */
function marked(error: unknown, mark: string): boolean {
  const data = error instanceof ProtocolError ? (error.data as Record<string, unknown> | undefined) : undefined
  return typeof data === 'object' && data !== null && data[mark] === true
}
