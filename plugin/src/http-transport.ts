import {
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client'
import { authorizingFetch, type AuthorizingFetch } from './auth-fetch.ts'
import { TokenRenewal } from './auth-renewal.ts'
import { authSetup } from './auth.ts'
import type { HttpConfig } from './config.ts'
import { isLegacyRefusal, isModernRefusal } from './era.ts'
import type { LearningRedact, Redact } from '@mcp-bridge/process'
import { STREAM_ENDED_MARK } from './request-failure.ts'
import { fetchWithLimits, type ResponseLimits } from './response-limits.ts'
import { withCredentialsAsHeader } from './url-credentials.ts'

/**
 * What every HTTP transport to one server shares: the configured headers and credentials, the
 * response limits, and the fetch that authenticates (auth.ts, auth-fetch.ts), with its token.
 * The transports of one connection attempt (the era probe's, then perhaps the legacy one) use
 * one access, so a token is obtained once; `end` aborts a token renewal in flight, once the
 * session that used it is over.
 */
export interface HttpAccess {
  url: URL
  headers: Record<string, string>
  limits: ResponseLimits
  fetch: typeof fetch
  /** Why the credentials were refused, when a 401 said no more. */
  refusal?: () => unknown
  end(): void
}

/** `redact`, when it is a learning one, is taught every credential the connection comes to hold. */
export function httpAccess(config: HttpConfig, redact: Redact | LearningRedact): HttpAccess {
  const learn = (value: string) => {
    if (value && 'learn' in redact) redact.learn(value)
  }
  const auth = authSetup(config.auth, process.env, learn, { config, serverName: config.serverName })
  const { url, headers: configured } = withCredentialsAsHeader(config.url, config.headers)
  const headers = { ...configured, ...auth.headers }
  const limits: ResponseLimits = { maxBytes: config.limits.maxResultBytes, maxErrorChars: config.limits.maxResultTextChars, redact }
  const lifetime = new AbortController()
  let authorized: AuthorizingFetch | undefined
  if (auth.grant) {
    // The authorization server's requests are bounded like the MCP server's, and carry the configured headers as they always did.
    const grantFetch = withHeaders(fetchWithLimits(fetch, limits), headers)
    const renewal = new TokenRenewal({
      current: auth.accessToken,
      grant: auth.grant(url, grantFetch),
      timeoutMs: config.connectTimeoutMs,
      lifetime: lifetime.signal,
    })
    authorized = authorizingFetch(fetch, renewal)
  }
  return { url, headers, limits, fetch: authorized?.fetch ?? fetch, refusal: authorized?.refusal, end: () => lifetime.abort() }
}

/**
 * The transport for an HTTP server of either era: legacy HTTP+SSE (2024-11-05), or Streamable
 * HTTP (the v2 SDK's: at 2026-07-28 it sends the Mcp-Method and Mcp-Name headers and opens a
 * stream per request), with every request answered even when its stream ends first
 * (AnsweredRequests), falling back to legacy SSE with `sseFallback` when the server refuses the
 * initialize POST, as the spec's backwards-compatibility section describes. All of them use the
 * same bounded, authenticating fetch.
 */
export function createHttpTransport(config: HttpConfig, access: HttpAccess): Transport {
  const { url, headers, limits, fetch: base, refusal } = access
  const legacy = () =>
    new SSEClientTransport(url, {
      requestInit: { headers },
      fetch: fetchWithLimits(base, limits),
    })
  if (config.transport === 'sse') return new LegacySseTransport(legacy(), refusal)
  const streamable: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    fetch: fetchWithLimits(base, {
      ...limits,
      // An abandoned SSE answer is answered here, as if the server had refused the request.
      onOversized: (answer) => streamable.onmessage?.(answer),
    }),
  })
  const answered = new AnsweredRequests(streamable)
  return config.sseFallback ? new FallbackTransport(answered, () => new LegacySseTransport(legacy(), refusal)) : answered
}

/**
 * The v2 transport with no request left unanswered by a stream that ended. It POSTs each request
 * and reads the answer from the event stream the POST opened; when that stream ends or breaks
 * before the answer and cannot be resumed (the server died mid-call, or cut the stream), it tells
 * only a request that asked (onRequestStreamEnd), and the client's requests do not ask: the call
 * would wait its whole timeout and end TOOL_TIMEOUT, where it should fail at once as a lost
 * connection. Here such a request is answered in its place with a JSON-RPC error marked
 * STREAM_ENDED_MARK, which request-failure.ts tells as the loss it is. A request cancelled on
 * purpose (its stream aborted) is not answered, and a stream the SDK resumes (after a priming
 * event id) ends only once resuming has failed.
 */
class AnsweredRequests implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** The client's 2026-07-28 requests are cancelled by aborting their stream: it checks this. */
  readonly hasPerRequestStream = true
  /** Requests sent and not yet answered, nor cancelled. */
  private readonly waiting = new Set<string | number>()

  constructor(private readonly inner: StreamableHTTPClientTransport) {
    inner.onmessage = (message: JSONRPCMessage) => {
      if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) this.waiting.delete(message.id)
      this.onmessage?.(message)
    }
    inner.onerror = (error) => this.onerror?.(error)
    inner.onclose = () => this.onclose?.()
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId
  }

  get protocolVersion(): string | undefined {
    return this.inner.protocolVersion
  }

  start(): Promise<void> {
    return this.inner.start()
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    // A request that watches its own stream (subscriptions/listen) is left to do so.
    if (!('method' in message) || !('id' in message) || options?.onRequestStreamEnd) return this.inner.send(message, options)
    const { id } = message
    this.waiting.add(id)
    options?.requestSignal?.addEventListener('abort', () => this.waiting.delete(id), { once: true })
    try {
      await this.inner.send(message, { ...options, onRequestStreamEnd: () => this.streamEnded(id) })
    } catch (error) {
      // The send's own failure fails the request (a refused connection: "fetch failed").
      this.waiting.delete(id)
      throw error
    }
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion(version)
  }

  terminateSession(): Promise<void> {
    return this.inner.terminateSession()
  }

  close(): Promise<void> {
    this.waiting.clear()
    return this.inner.close()
  }

  /** After everything the stream carried was delivered: a request still waiting gets no answer from it. */
  private streamEnded(id: string | number): void {
    if (!this.waiting.delete(id)) return
    this.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: { code: -32000, message: 'the event stream carrying the answer ended before the answer came', data: { [STREAM_ENDED_MARK]: true } },
    })
  }
}

/** `base` with `headers` under each request's own (which win), as the SDK's requestInit merges them. */
export function withHeaders(base: typeof fetch, headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(headers)
    new Headers(init?.headers).forEach((value, name) => merged.set(name, value))
    return base(input, { ...init, headers: merged })
  }
}

/**
 * The SDK's legacy SSE client, with what the bridge needs: a failed event stream ends the
 * transport (the SDK's EventSource would silently reconnect to a session the server has forgotten,
 * so the bridge's supervisor must start a new one). Only the stream's errors do: the SDK reports a
 * single failed POST or an unparsable event through the same onerror, and those fail one request.
 */
class LegacySseTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: Transport['onmessage']
  private started = false
  private closed = false

  constructor(
    private readonly inner: SSEClientTransport,
    /** Why the credentials were refused, when the stream's GET got a 401 that said no more. */
    private readonly refusal?: () => unknown,
  ) {
    this.inner.onmessage = (message: JSONRPCMessage) => this.onmessage?.(message)
    this.inner.onerror = (error) => {
      this.onerror?.(error)
      if (error instanceof SseError && this.started && !this.closed) void this.close()
    }
    this.inner.onclose = () => {
      if (this.closed) return
      this.closed = true
      this.onclose?.()
    }
  }

  async start(): Promise<void> {
    try {
      await this.inner.start()
    } catch (error) {
      // The SDK's error says only "Non-200 status code (401)"; the refusal says why.
      throw (error instanceof SseError && this.refusal?.()) || error
    }
    this.started = true
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message)
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion(version)
  }

  close(): Promise<void> {
    return this.inner.close()
  }
}

/**
 * Streamable HTTP first; when the initialize POST is refused with a 4xx other than 401/403 (a
 * legacy server answers 404 or 405 there), the same initialize goes over legacy HTTP+SSE instead,
 * and every later message follows it. Credentials problems are not a reason to switch.
 */
class FallbackTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: Transport['onmessage']
  private current: Transport
  private settled = false

  constructor(
    private readonly primary: AnsweredRequests,
    private readonly fallback: () => Transport,
  ) {
    this.current = primary
    this.wire(primary)
  }

  get sessionId(): string | undefined {
    return this.current.sessionId
  }

  /** Ends a Streamable HTTP session with DELETE; a legacy session ends with its stream. */
  async terminateSession(): Promise<void> {
    if (this.current === this.primary && this.primary.sessionId) await this.primary.terminateSession()
  }

  start(): Promise<void> {
    return this.primary.start()
  }

  async send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    if (this.settled) return this.current.send(message, options)
    try {
      await this.primary.send(message, options)
      this.settled = true
    } catch (error) {
      // A modern server's refusal (era.ts) is no legacy one: the session moves to 2026-07-28 instead.
      if (!isLegacyRefusal(error) || isModernRefusal(error) || !('method' in message) || message.method !== 'initialize') throw error
      this.settled = true
      // The primary never got a session, so closing it sends nothing; its close must not end the connection.
      this.primary.onclose = undefined
      await this.primary.close()
      const legacy = this.fallback()
      this.current = legacy
      this.wire(legacy)
      await legacy.start()
      await legacy.send(message, options)
    }
  }

  setProtocolVersion(version: string): void {
    this.current.setProtocolVersion?.(version)
  }

  close(): Promise<void> {
    return this.current.close()
  }

  private wire(transport: Transport): void {
    transport.onmessage = (message, extra) => this.onmessage?.(message, extra)
    transport.onerror = (error) => this.onerror?.(error)
    transport.onclose = () => this.onclose?.()
  }
}
