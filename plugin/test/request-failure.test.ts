import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { InvalidGrantError, OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { describe, expect, it } from 'vitest'
import { errorMessageWithCause } from '@mcp-bridge/process'
import { BridgeError } from '../src/errors.ts'
import { MALFORMED_MARK } from '../src/json-rpc-message.ts'
import { classifyFailure, isAuthFailure, isConnectionLoss, isCredentialRefusal, isRefusedAnswer, isSdkTimeout, isServerGone, OVERSIZED_MARK, STREAM_ENDED_MARK } from '../src/request-failure.ts'
// Registers the SDK's credential-refusal classes, as loading the OAuth modules does in the bridge.
import '../src/auth-renewal.ts'

// How the session tells one failure from another decides what the host sees: a refusal that stops
// retrying, a lost connection that reconnects, the server's own answer, an oversized result. Each
// predicate is pinned on both sides of its line.

const http = (status: number) => new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'status', { status, statusText: '' })
const mcp = (code: number, data?: unknown) => new ProtocolError(code, 'message', data)
const sdk = (code: SdkErrorCode, data?: unknown) => new SdkError(code, 'verdict', data)
const ErrorCode = { ...ProtocolErrorCode, ConnectionClosed: -32000, RequestTimeout: -32001 }

describe('isAuthFailure: an HTTP 401 or 403 from the server', () => {
  it('is true for 401 and 403 only, and only from the Streamable HTTP transport', () => {
    expect(isAuthFailure(http(401))).toBe(true)
    expect(isAuthFailure(http(403))).toBe(true)
    for (const code of [400, 402, 404, 500]) expect(isAuthFailure(http(code)), String(code)).toBe(false)
    expect(isAuthFailure(mcp(401))).toBe(false)
    expect(isAuthFailure(Object.assign(new Error('HTTP 401'), { code: 401 }))).toBe(false)
    expect(isAuthFailure(undefined)).toBe(false)
  })
})

describe('isCredentialRefusal: the authorization server or the SDK refused the credentials', () => {
  it('is true for an OAuth error (any of its kinds) and the SDK\'s UnauthorizedError, false for anything else', () => {
    expect(isCredentialRefusal(new OAuthError('refused'))).toBe(true)
    expect(isCredentialRefusal(new InvalidGrantError('expired grant'))).toBe(true)
    expect(isCredentialRefusal(new UnauthorizedError())).toBe(true)
    expect(isCredentialRefusal(http(401))).toBe(false)
    expect(isCredentialRefusal(new Error('Unauthorized'))).toBe(false)
    expect(isCredentialRefusal('unauthorized')).toBe(false)
  })
})

describe('isRefusedAnswer: an answer over limits.maxResultBytes, or not a JSON-RPC response', () => {
  it("is the bridge's INVALID_RESULT, or an McpError whose data carries the oversized or the malformed mark as true", () => {
    expect(isRefusedAnswer(new BridgeError('too big', 'INVALID_RESULT'))).toBe(true)
    expect(isRefusedAnswer(new BridgeError('other', 'TOOL_ERROR'))).toBe(false)
    expect(isRefusedAnswer(mcp(ErrorCode.InternalError, { [OVERSIZED_MARK]: true }))).toBe(true)
    expect(isRefusedAnswer(mcp(ErrorCode.InternalError, { [MALFORMED_MARK]: true }))).toBe(true)
    expect(isRefusedAnswer(mcp(ErrorCode.InternalError, { [OVERSIZED_MARK]: 'true' }))).toBe(false)
    expect(isRefusedAnswer(mcp(ErrorCode.InternalError, { other: true }))).toBe(false)
    expect(isRefusedAnswer(mcp(ErrorCode.InternalError, null))).toBe(false)
    expect(isRefusedAnswer(mcp(ErrorCode.InternalError))).toBe(false)
    // The mark counts only on the SDK's error, not on any object that carries it.
    expect(isRefusedAnswer(Object.assign(new Error('x'), { data: { [OVERSIZED_MARK]: true } }))).toBe(false)
  })
})

describe('isServerGone: transport errors that mean the server cannot be reached', () => {
  it('is a TypeError saying "fetch failed" (any case), or any error that failed to reconnect its SSE stream', () => {
    expect(isServerGone(new TypeError('fetch failed'))).toBe(true)
    expect(isServerGone(new TypeError('request: Fetch Failed (ECONNREFUSED)'))).toBe(true)
    expect(isServerGone(new Error('fetch failed'))).toBe(false)
    expect(isServerGone(new TypeError('Failed to fetch'))).toBe(false)
    expect(isServerGone(new Error('SSE stream disconnected: Failed to reconnect SSE stream after 2 attempts'))).toBe(true)
    expect(isServerGone('Failed to reconnect SSE stream')).toBe(true)
    expect(isServerGone(new Error('failed to reconnect sse stream'))).toBe(false)
    expect(isServerGone(new Error('Failed to reconnect'))).toBe(false)
  })
})

describe('isConnectionLoss: the server is gone rather than one request failing', () => {
  it('over Streamable HTTP: a 404 (the session is gone)', () => {
    expect(isConnectionLoss(http(404))).toBe(true)
    for (const code of [400, 401, 405, 500, 503]) expect(isConnectionLoss(http(code)), String(code)).toBe(false)
    // An HTTP error is judged by its status alone, whatever its text says.
    expect(isConnectionLoss(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Not connected', { status: 500 }))).toBe(false)
  })

  it("from the SDK: its ConnectionClosed and NotConnected verdicts, never a server's -32000", () => {
    expect(isConnectionLoss(sdk(SdkErrorCode.ConnectionClosed))).toBe(true)
    expect(isConnectionLoss(sdk(SdkErrorCode.NotConnected))).toBe(true)
    expect(isConnectionLoss(sdk(SdkErrorCode.RequestTimeout))).toBe(false)
    expect(isConnectionLoss(mcp(ErrorCode.ConnectionClosed))).toBe(false)
    expect(isConnectionLoss(new ProtocolError(ErrorCode.InternalError, 'Not connected'))).toBe(false)
  })

  it("the transport's answer in place of one whose event stream ended: only with the mark set to true", () => {
    expect(isConnectionLoss(mcp(-32000, { [STREAM_ENDED_MARK]: true }))).toBe(true)
    expect(isConnectionLoss(mcp(-32000, { [STREAM_ENDED_MARK]: 'true' }))).toBe(false)
    expect(isConnectionLoss(Object.assign(new Error('x'), { data: { [STREAM_ENDED_MARK]: true } }))).toBe(false)
  })

  it('from fetch: a TypeError saying fetch failed, Failed to fetch or terminated, in any case', () => {
    for (const message of ['fetch failed', 'Failed to fetch', 'terminated', 'TERMINATED', 'other side: Fetch Failed']) {
      expect(isConnectionLoss(new TypeError(message)), message).toBe(true)
    }
    expect(isConnectionLoss(new TypeError('Cannot read properties of undefined'))).toBe(false)
    expect(isConnectionLoss(new TypeError('Not connected'))).toBe(false)
  })

  it('otherwise: the SDK saying "Not connected", exactly so', () => {
    expect(isConnectionLoss(new Error('Not connected'))).toBe(true)
    expect(isConnectionLoss('Not connected')).toBe(true)
    expect(isConnectionLoss(new Error('not connected'))).toBe(false)
    expect(isConnectionLoss(new Error('fetch failed'))).toBe(false)
    expect(isConnectionLoss(new Error('terminated'))).toBe(false)
  })
})

describe('errorMessageWithCause: the network reason fetch keeps in its cause', () => {
  it('adds the cause and its code, once', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })
    expect(errorMessageWithCause(new TypeError('fetch failed', { cause: refused }))).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:9')
    const dns = Object.assign(new Error('getaddrinfo failed'), { code: 'ENOTFOUND' })
    expect(errorMessageWithCause(new TypeError('fetch failed', { cause: dns }))).toBe('fetch failed: ENOTFOUND: getaddrinfo failed')
    expect(errorMessageWithCause(new TypeError('fetch failed', { cause: new Error('bad port') }))).toBe('fetch failed: bad port')
    expect(errorMessageWithCause(new TypeError('fetch failed'))).toBe('fetch failed')
    expect(errorMessageWithCause('plain')).toBe('plain')
  })
})

describe("isSdkTimeout: the SDK's own timeout, not a server's -32001 answer", () => {
  it('is the SDK\'s RequestTimeout verdict carrying the timeout the request was sent with', () => {
    expect(isSdkTimeout(sdk(SdkErrorCode.RequestTimeout, { timeout: 200 }))).toBe(true)
    expect(isSdkTimeout(sdk(SdkErrorCode.RequestTimeout, { timeout: '200' }))).toBe(false)
    expect(isSdkTimeout(sdk(SdkErrorCode.RequestTimeout))).toBe(false)
    expect(isSdkTimeout(sdk(SdkErrorCode.ConnectionClosed, { timeout: 200 }))).toBe(false)
    expect(isSdkTimeout(mcp(ErrorCode.RequestTimeout, { timeout: 200 }))).toBe(false)
  })
})

describe('classifyFailure: one verdict per failed request, for plain and task calls alike', () => {
  it("tells the SDK's two verdicts from a server answering with the same codes", () => {
    expect(classifyFailure(sdk(SdkErrorCode.RequestTimeout, { timeout: 200 }))).toBe('timeout')
    expect(classifyFailure(mcp(ErrorCode.RequestTimeout, { timeout: 200 }))).toBe('server-answer')
    expect(classifyFailure(sdk(SdkErrorCode.ConnectionClosed))).toBe('lost')
    expect(classifyFailure(mcp(ErrorCode.ConnectionClosed))).toBe('server-answer')
  })

  it('names refusals, losses and answers', () => {
    expect(classifyFailure(http(401))).toBe('auth')
    expect(classifyFailure(new OAuthError('refused'))).toBe('credentials')
    expect(classifyFailure(mcp(ErrorCode.InternalError, { [OVERSIZED_MARK]: true }))).toBe('refused-answer')
    expect(classifyFailure(new BridgeError('not JSON-RPC', 'INVALID_RESULT'))).toBe('refused-answer')
    expect(classifyFailure(http(404))).toBe('lost')
    expect(classifyFailure(new TypeError('fetch failed'))).toBe('lost')
    expect(classifyFailure(mcp(ErrorCode.InvalidParams))).toBe('server-answer')
    expect(classifyFailure(mcp(-32099))).toBe('server-answer')
    expect(classifyFailure(http(500))).toBe('other')
    expect(classifyFailure(new Error('odd'))).toBe('other')
  })
})
