import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { ServerTarget } from '../../src/client/adapter.ts'

/** Transport-level bugs of the naive client (auth, legacy SSE); each one switches off one thing done right. */
export interface TransportFaults {
  /** OAuth: answer every 401 with another fresh token and the same request again, up to ten times (a retry loop). */
  unauthorizedLoop?: boolean
  /** OAuth: keep the first token it was given; a token that expired is fetched again but never replaced. */
  neverRenewToken?: boolean
  /** OAuth: on expiry, present the refresh token (again, when refused) instead of a fresh client-credentials grant. */
  refreshOnly?: boolean
  /** OAuth: authenticate with client_secret_basic whatever methods the authorization server advertises. */
  ignoreAuthMethods?: boolean
  /** OAuth: the private_key_jwt assertion is addressed to the MCP server (the resource), not the authorization server. */
  jwtAudienceResource?: boolean
  /** OAuth: token requests go without the RFC 8707 resource parameter. */
  noResourceParam?: boolean
  /** OAuth: a token request refused as invalid_client is sent again, five more times. */
  retryRefusedClient?: boolean
  /** OAuth: send the token as `?access_token=` in the URL instead of the Authorization header. */
  tokenInQuery?: boolean
  /** OAuth: a refused request's error quotes the Authorization header it carried (and the error is logged). */
  tokenInErrors?: boolean
  /** Legacy SSE: `transport: sse` is ignored; Streamable HTTP is spoken to the legacy URL. */
  ignoreSseTransport?: boolean
  /** Legacy SSE: `sseFallback` is ignored; a 405 to the initialize POST ends the attempt. */
  noSseFallback?: boolean
  /** Legacy SSE: falls back on a 405 even when the config did not ask for it. */
  alwaysFallBack?: boolean
}

/** The plugin's auth config, as the naive client reads it (the same field names). */
interface AuthConfig {
  type: 'client_credentials' | 'private_key_jwt' | 'bearer'
  clientId?: string
  clientSecretEnv?: string
  privateKeyEnv?: string
  algorithm?: string
  issuer?: string
  scope?: string
  tokenEnv?: string
}

/** The naive client's transport for one connection attempt: what a plain SDK user would write. */
export function naiveTransport(target: ServerTarget, config: Record<string, unknown>, faults: TransportFaults): Transport {
  if (target.transport === 'stdio') {
    return new StdioClientTransport({ command: target.command, args: target.args, env: { ...(target.env as Record<string, string>), PATH: process.env.PATH ?? '' }, stderr: 'ignore' })
  }
  const url = new URL(target.url)
  const budget = { grants: 0 }
  const { authProvider, headers } = naiveAuth(config.auth as AuthConfig | undefined, faults, budget, url)
  const options = { ...(authProvider ? { authProvider } : {}), requestInit: { headers }, fetch: faultyFetch(url, authProvider, faults, budget) }
  const legacy = () => new SSEClientTransport(url, options)
  if (config.transport === 'sse' && !faults.ignoreSseTransport) return legacy()
  const streamable = new StreamableHTTPClientTransport(url, options)
  return (config.sseFallback === true && !faults.noSseFallback) || faults.alwaysFallBack ? new NaiveFallback(streamable, legacy) : streamable
}

/** The SDK's providers for the grants, a header for a given token; secrets from the variables the config names. */
function naiveAuth(config: AuthConfig | undefined, faults: TransportFaults, budget: { grants: number }, resource: URL): { authProvider?: OAuthClientProvider; headers: Record<string, string> } {
  if (!config) return { headers: {} }
  if (config.type === 'bearer') return { headers: { authorization: `Bearer ${process.env[config.tokenEnv ?? ''] ?? ''}` } }
  const common = { clientId: config.clientId ?? '', expectedIssuer: config.issuer, ...(config.scope ? { scope: config.scope } : {}) }
  let provider: OAuthClientProvider
  if (config.type === 'private_key_jwt') {
    provider = new PrivateKeyJwtProvider({ ...common, privateKey: process.env[config.privateKeyEnv ?? ''] ?? '', algorithm: config.algorithm ?? 'RS256' })
    // The bug: the assertion's audience taken from the resource's URL (the SDK takes the issuer's).
    const sign = provider.addClientAuthentication!.bind(provider)
    if (faults.jwtAudienceResource) provider.addClientAuthentication = (headers, params, url, metadata) => sign(headers, params, url, metadata && { ...metadata, issuer: resource.href })
  } else {
    const secret = process.env[config.clientSecretEnv ?? ''] ?? ''
    provider = new ClientCredentialsProvider({ ...common, clientSecret: secret })
    // The bug: a Basic header always, as if token_endpoint_auth_methods_supported did not exist.
    if (faults.ignoreAuthMethods) provider.addClientAuthentication = (headers) => headers.set('authorization', `Basic ${btoa(`${common.clientId}:${secret}`)}`)
  }
  if (faults.refreshOnly) refreshWhenHolding(provider)
  if (faults.neverRenewToken) keepFirstTokens(provider)
  boundGrants(provider, budget, faults.unauthorizedLoop ? 12 : 2)
  return { authProvider: provider, headers: {} }
}

/**
 * Two grants in a row without an accepted token, then a refusal: what a careful SDK user adds,
 * because the SDK's legacy SSE client re-authorises on every 401 without end. (The loop fault
 * raises the bound, so its loop ends too, inside the kit's process.)
 */
function boundGrants(provider: OAuthClientProvider, budget: { grants: number }, limit: number): void {
  const prepare = provider.prepareTokenRequest!.bind(provider)
  provider.prepareTokenRequest = (scope?: string) => {
    if (++budget.grants > limit) throw new UnauthorizedError('the server refused a fresh token again')
    return prepare(scope)
  }
}

/**
 * The refreshOnly bug: once it holds tokens it behaves as an interactive client, which the SDK
 * renews with the refresh token; a refused refresh then ends in a redirect it cannot follow.
 */
function refreshWhenHolding(provider: OAuthClientProvider): void {
  Object.defineProperty(provider, 'redirectUrl', { get: () => (provider.tokens() ? 'http://127.0.0.1/naive-callback' : undefined) })
}

/** The neverRenewToken bug: a fresh token is fetched, then dropped on the floor. */
function keepFirstTokens(provider: OAuthClientProvider): void {
  const save = provider.saveTokens.bind(provider)
  let kept = false
  provider.saveTokens = (tokens: OAuthTokens) => {
    if (kept) return
    kept = true
    return save(tokens)
  }
}

/** The fetch the transports use: plain, unless a fault puts the token somewhere it must not go. */
function faultyFetch(url: URL, provider: OAuthClientProvider | undefined, faults: TransportFaults, budget: { grants: number }): FetchLike {
  return async (input, init) => {
    let target = input
    let headers = new Headers(init?.headers)
    const authorization = headers.get('authorization') ?? ''
    if (faults.tokenInQuery && /^Bearer /i.test(authorization)) {
      const moved = new URL(input)
      moved.searchParams.set('access_token', authorization.replace(/^Bearer /i, ''))
      headers.delete('authorization')
      target = moved
    }
    let body = init?.body
    if (faults.noResourceParam && new URL(target).pathname === '/token' && body !== undefined && body !== null) {
      const form = new URLSearchParams(String(body))
      form.delete('resource')
      body = form.toString()
    }
    let response = await fetch(target, { ...init, headers, body })
    // The loop: every refusal of a token is met with another token, as long as the server keeps refusing.
    for (let round = 0; faults.unauthorizedLoop && provider && response.status === 401 && /^Bearer /i.test(headers.get('authorization') ?? '') && round < 10; round++) {
      await auth(provider, { serverUrl: url })
      headers = new Headers(headers)
      headers.set('authorization', `Bearer ${(await provider.tokens())?.access_token ?? ''}`)
      response = await fetch(target, { ...init, headers, body })
    }
    // The bug: credentials the authorization server refused, presented again as they were.
    for (let round = 0; faults.retryRefusedClient && response.status === 401 && new URL(target).pathname === '/token' && round < 5; round++) {
      response = await fetch(target, { ...init, headers, body })
    }
    // A bearer token the server accepted refills the grant budget (a token request's Basic header does not).
    if (response.ok && /^Bearer /i.test(headers.get('authorization') ?? '')) budget.grants = 0
    if (faults.tokenInErrors && response.status === 401 && authorization) throw new Error(`HTTP 401 from ${String(target)} (sent authorization: ${authorization})`)
    return response
  }
}

/**
 * sseFallback, the way the spec's backwards-compatibility section reads: POST initialize; on 400,
 * 404 or 405, open the legacy stream at the same URL and send everything there from then on.
 */
class NaiveFallback implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: Transport['onmessage']
  private current: Transport

  constructor(
    private readonly primary: StreamableHTTPClientTransport,
    private readonly legacy: () => Transport,
  ) {
    this.current = primary
    this.follow(primary)
  }

  get sessionId(): string | undefined {
    return this.current.sessionId
  }

  start(): Promise<void> {
    return this.primary.start()
  }

  async send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    try {
      await this.current.send(message, options)
    } catch (error) {
      const initialize = 'method' in message && message.method === 'initialize'
      if (this.current !== this.primary || !initialize || !(error instanceof StreamableHTTPError) || ![400, 404, 405].includes(error.code ?? 0)) throw error
      this.primary.onclose = undefined
      await this.primary.close()
      this.current = this.legacy()
      this.follow(this.current)
      await this.current.start()
      await this.current.send(message, options)
    }
  }

  setProtocolVersion(version: string): void {
    this.current.setProtocolVersion?.(version)
  }

  close(): Promise<void> {
    return this.current.close()
  }

  private follow(transport: Transport): void {
    transport.onmessage = (message, extra) => this.onmessage?.(message, extra)
    transport.onerror = (error) => this.onerror?.(error)
    transport.onclose = () => this.onclose?.()
  }
}
