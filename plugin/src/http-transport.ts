import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { authSetup } from './auth.ts'
import type { HttpConfig } from './config.ts'
import type { LearningRedact, Redact } from './redact.ts'
import { fetchWithLimits } from './response-limits.ts'

export interface HttpTransportOptions {
  url: URL
  headers: Record<string, string>
  /** A learning redactor is taught every credential the connection comes to hold. */
  redact: Redact | LearningRedact
}

/**
 * The transport for an HTTP server: Streamable HTTP, legacy HTTP+SSE (2024-11-05), or Streamable
 * HTTP that falls back to legacy SSE when the server refuses the initialize POST, as the spec's
 * backwards-compatibility section describes. Authentication (auth.ts) is the same for all three.
 */
export function createHttpTransport(config: HttpConfig, options: HttpTransportOptions): Transport {
  const learn = (value: string) => {
    if (value && 'learn' in options.redact) options.redact.learn(value)
  }
  const auth = authSetup(config.auth, process.env, learn)
  const headers = { ...options.headers, ...auth.headers }
  const provider = auth.provider && boundedGrants(auth.provider)
  const limits = { maxBytes: config.limits.maxResultBytes, maxErrorChars: config.limits.maxResultTextChars, redact: options.redact }
  const base = provider ? resettingOnAcceptedToken(fetch, provider) : fetch
  const legacy = () =>
    new SSEClientTransport(options.url, {
      requestInit: { headers },
      ...(provider ? { authProvider: provider } : {}),
      fetch: fetchWithLimits(base, limits),
    })
  if (config.transport === 'sse') return new LegacySseTransport(legacy)
  const streamable: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(options.url, {
    requestInit: { headers },
    ...(provider ? { authProvider: provider } : {}),
    fetch: fetchWithLimits(base, {
      ...limits,
      // An abandoned SSE answer is answered here, as if the server had refused the request.
      onOversized: (answer) => streamable.onmessage?.(answer),
    }),
  })
  return config.sseFallback ? new FallbackTransport(streamable, () => new LegacySseTransport(legacy)) : streamable
}

/**
 * The grant budget refills once the server accepts a token: a request that carried a bearer
 * token and got a 2xx. (Requests to the authorization server never carry one.)
 */
function resettingOnAcceptedToken(base: typeof fetch, provider: { progressed(): void }): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init)
    if (response.ok && /^bearer /i.test(new Headers(init?.headers).get('authorization') ?? '')) provider.progressed()
    return response
  }
}

/**
 * A grant that succeeds while the server keeps answering 401 would start over forever (the SDK's
 * legacy SSE transport re-authorises on every 401 with no limit). Two grants in a row with no
 * message from the server in between are the "one retry with a fresh token"; the next one fails.
 */
function boundedGrants(provider: OAuthClientProvider): OAuthClientProvider & { progressed(): void } {
  let grants = 0
  // Counted where the grant is prepared, before the token request goes out: the refused third
  // grant costs the authorization server nothing.
  const prepare = provider.prepareTokenRequest?.bind(provider)
  if (!prepare) throw new Error('internal: an OAuth provider of the bridge prepares its own token requests')
  return Object.assign(provider, {
    prepareTokenRequest(scope?: string) {
      grants += 1
      if (grants > 2) throw new UnauthorizedError('the server refused a freshly issued token again: check the client registration, its scopes and the issuer')
      return prepare(scope)
    },
    progressed() {
      grants = 0
    },
  })
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
  private readonly inner: SSEClientTransport
  private started = false
  private closed = false

  constructor(create: () => SSEClientTransport) {
    this.inner = create()
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
    await this.inner.start()
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
    private readonly primary: StreamableHTTPClientTransport,
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
      if (!isLegacyRefusal(error) || !('method' in message) || message.method !== 'initialize') throw error
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

/** What a server that only speaks the 2024-11-05 transport answers a POST to its SSE URL. */
/** How a server that speaks only the 2024-11-05 HTTP+SSE transport refuses a Streamable HTTP initialize POST. */
export function isLegacyRefusal(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403
}
