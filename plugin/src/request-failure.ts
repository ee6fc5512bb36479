import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { BridgeError, errorMessage } from './errors.ts'
import { MALFORMED_MARK } from './json-rpc-message.ts'
import { AnswerLostError } from './modern-errors.ts'
import { OVERSIZED_MARK } from './response-limits.ts'

/**
 * What ended a failed request, told apart in one place for plain calls and task calls (an abort
 * and the call's own ceiling are the caller's to name first: only it knows it aborted).
 * - `auth`: HTTP 401/403; `credentials`: the authorization server refused the grant;
 * - `refused-answer`: the bridge refused what the server sent (over limits, or not JSON-RPC);
 * - `timeout`: the SDK's own timeout of a request the bridge sent;
 * - `lost`: the server can no longer be reached;
 * - `server-answer`: a JSON-RPC error response, whatever its code: the session is fine;
 * - `other`: anything else.
 */
export type RequestFailure = 'auth' | 'credentials' | 'refused-answer' | 'timeout' | 'lost' | 'server-answer' | 'other'

export interface FailureContext {
  /** The transport has closed: only then is a -32000 the SDK's "Connection closed". */
  transportClosed: boolean
  /** The `timeout` values the failed request could have been sent with. */
  timeoutsSent: readonly number[]
}

/**
 * The SDK raises McpError for a server's JSON-RPC error and for two verdicts of its own, whose
 * codes a server may also send: -32000 (JSON-RPC's first "server error" code, and the SDK's
 * "Connection closed") and -32001 (the SDK's "Request timed out"). The SDK's closed comes only once
 * the transport has closed; its timeout carries `{ timeout }` as it was sent. Neither is told apart
 * by the time elapsed: a timer armed while the event loop's clock was stale fires early by that
 * much, under load.
 */
export function classifyFailure(error: unknown, context: FailureContext): RequestFailure {
  if (isAuthFailure(error)) return 'auth'
  if (isCredentialRefusal(error)) return 'credentials'
  if (isRefusedAnswer(error)) return 'refused-answer'
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return isSdkTimeout(error, context.timeoutsSent) ? 'timeout' : 'server-answer'
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return context.transportClosed ? 'lost' : 'server-answer'
  if (isConnectionLoss(error)) return 'lost'
  if (isServerAnswer(error)) return 'server-answer'
  return 'other'
}

/** The server refused our credentials; a new session would be refused the same way. */
export function isAuthFailure(error: unknown): error is StreamableHTTPError & { code: 401 | 403 } {
  return error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)
}

/** The authorization server refused the grant, or the server refused a fresh token: retrying the same way cannot help. */
export function isCredentialRefusal(error: unknown): boolean {
  return error instanceof OAuthError || error instanceof UnauthorizedError
}

/**
 * The request failed because the bridge refused its answer: over limits.maxResultBytes (see
 * response-limits.ts), or not a JSON-RPC response at all (json-rpc-message.ts' refusedAnswer).
 */
export function isRefusedAnswer(error: unknown): boolean {
  if (BridgeError.is(error)) return error.code === 'INVALID_RESULT'
  const data = error instanceof McpError ? (error.data as Record<string, unknown> | undefined) : undefined
  return typeof data === 'object' && data !== null && (data[OVERSIZED_MARK] === true || data[MALFORMED_MARK] === true)
}

/**
 * A JSON-RPC error response from the server, by its code alone: -32000 and -32001 need the
 * context that classifyFailure has.
 */
export function isServerAnswer(error: unknown): error is McpError {
  return error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout
}

/** The SDK's timeout of a request sent with one of `timeoutsMs` (it puts `{ timeout }` in the error's data). */
export function isSdkTimeout(error: McpError, timeoutsMs: readonly number[]): boolean {
  const data = error.data as { timeout?: unknown } | undefined
  return typeof data === 'object' && data !== null && typeof data.timeout === 'number' && timeoutsMs.includes(data.timeout)
}

/** Transport errors (not request errors) that mean the server can no longer be reached. */
export function isServerGone(error: unknown): boolean {
  return (error instanceof TypeError && /fetch failed/i.test(error.message)) || /Failed to reconnect SSE stream/.test(errorMessage(error))
}

/** Failures that mean the server is gone rather than that one request went wrong (a -32000 only by its code: see classifyFailure). */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof AnswerLostError) return true
  if (error instanceof StreamableHTTPError) return error.code === 404 || error.code === undefined
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed
  if (error instanceof TypeError) return /fetch failed|Failed to fetch|terminated/i.test(error.message)
  return /Not connected/.test(errorMessage(error))
}
