import { JWT_BEARER_ASSERTION, verifyClientAssertion } from './oauth-assertion.ts'
import { AuthorizationEndpoint } from './oauth-authorize.ts'
import { CUSTOM_RESOURCE_METADATA, type OAuthFault } from './oauth-faults.ts'
import { prng, randomHex } from './prng.ts'
import { TOKEN_AUTH_METHODS, type OAuthSpec } from './schema.ts'
import type { BearerKind, TokenRecord } from './wire.ts'

/** An answer from the authorization server, with what the wire log says about it. */
export interface OAuthAnswer {
  response: Response
  token?: TokenRecord
}

const PROTECTED_RESOURCE = '/.well-known/oauth-protected-resource'
const SERVER_METADATA = '/.well-known/oauth-authorization-server'
const TOKEN = '/token'
const AUTHORIZE = '/authorize'
const REGISTER = '/register'

interface Issued {
  /** Date.now() after which the token is refused, or Infinity. */
  expiresAt: number
  /** The scope it was issued for, if any. */
  scope?: string
}

/** For a test hosting the authorization server itself (plugin/test): what it is told as it happens. */
export interface OAuthServerHooks {
  /** Every token issued, access and refresh, so the test can look for it where it must never appear. */
  issued?(token: string): void
  /** Every authorization code and PKCE verifier a token request presented: secrets the test looks for too. */
  presented?(secret: string): void
}

/**
 * The fixture as an OAuth 2.1 resource server with its own authorization server on the same
 * origin (the MCP 2025-11-25 authorization flow, headless): a 401 with `WWW-Authenticate: Bearer
 * resource_metadata=…` (RFC 9728 §5.1) for a request without a good token, the protected-resource
 * metadata (RFC 9728 §3) at the endpoint's path-inserted and root well-known URIs, the server
 * metadata (RFC 8414 §3) and a token endpoint for client_credentials (client_secret_basic,
 * client_secret_post, private_key_jwt: RFC 7523 §2.2) and refresh_token. Tokens derive from the
 * behaviour's seed; they are never written anywhere, only what was asked and answered.
 */
export class OAuthServer {
  private readonly accessTokens = new Map<string, Issued>()
  private readonly refreshTokens = new Set<string>()
  private readonly random: () => number
  /** The authorization-code grant's front channel and registrations, when `spec.authorize` is set. */
  private readonly front?: AuthorizationEndpoint

  constructor(
    private readonly spec: OAuthSpec,
    seed: number,
    start: number,
    /** The path of the protected MCP endpoint. */
    private readonly endpoint = '/mcp',
    private readonly hooks: OAuthServerHooks = {},
  ) {
    // A restarted fixture issues tokens its predecessor never did.
    this.random = prng(seed, 7_000_000 + start)
    if (spec.authorize) this.front = new AuthorizationEndpoint(spec, this.random)
  }

  /** Every token issued so far stops working, as when an administrator revokes them (in-process control). */
  revokeAll(): void {
    this.accessTokens.clear()
    this.refreshTokens.clear()
  }

  /** Every access token issued so far is past its lifetime, as if its expiry had just come (in-process control). */
  expireAll(): void {
    for (const issued of this.accessTokens.values()) issued.expiresAt = 0
  }

  /** Whether a path is the authorization server's (or a metadata document), not the MCP endpoint's. */
  serves(path: string): boolean {
    if (this.front && (path === AUTHORIZE || (path === REGISTER && this.spec.registration))) return true
    if (path === this.serverMetadataPath()) return !this.faulty('no-server-metadata')
    if (path === TOKEN) return !this.faulty('no-token-endpoint')
    if (this.faulty('no-well-known')) return path === CUSTOM_RESOURCE_METADATA
    return path === PROTECTED_RESOURCE || path === `${PROTECTED_RESOURCE}${this.endpoint}`
  }

  private faulty(fault: OAuthFault): boolean {
    return this.spec.faults?.includes(fault) ?? false
  }

  private serverMetadataPath(): string {
    return this.faulty('path-server-metadata') ? `${SERVER_METADATA}${this.endpoint}` : SERVER_METADATA
  }

  private resourceMetadataUrl(origin: string): string {
    return this.faulty('no-well-known') ? `${origin}${CUSTOM_RESOURCE_METADATA}` : `${origin}${PROTECTED_RESOURCE}${this.endpoint}`
  }

  async handle(request: Request): Promise<OAuthAnswer> {
    const url = new URL(request.url)
    if (url.pathname === TOKEN) {
      if (request.method !== 'POST') return { response: oauthError(405, 'invalid_request', 'the token endpoint takes POST') }
      return this.token(request, url.origin)
    }
    if (url.pathname === REGISTER && this.front) {
      if (request.method !== 'POST') return { response: oauthError(405, 'invalid_request', 'registration takes POST') }
      return { response: await this.front.register(request) }
    }
    if (request.method !== 'GET') return { response: oauthError(405, 'invalid_request', 'metadata is read with GET') }
    if (url.pathname === AUTHORIZE && this.front) return { response: this.front.authorize(url, url.origin) }
    if (url.pathname === this.serverMetadataPath()) return { response: json(200, this.serverMetadata(url.origin)) }
    return {
      response: json(200, {
        resource: `${url.origin}${this.endpoint}`,
        ...(this.faulty('no-authorization-servers') ? {} : { authorization_servers: [url.origin] }),
        bearer_methods_supported: ['header'],
        ...(this.spec.scopes ? { scopes_supported: this.spec.scopes } : {}),
      }),
    }
  }

  /**
   * The resource server's check of a request to the MCP endpoint: undefined when its bearer token
   * is good, else the 401 to answer. `bearer` says what it carried, for the wire log.
   */
  check(request: Request): { bearer: BearerKind; refusal?: Response } {
    const url = new URL(request.url)
    const bearer = this.classify(request, url)
    if (bearer === 'valid') return { bearer }
    const params = [
      this.faulty('no-resource-metadata') ? '' : `resource_metadata="${this.resourceMetadataUrl(url.origin)}"`,
      this.spec.scopes ? `scope="${this.spec.scopes.join(' ')}"` : '',
      // RFC 6750 §3.1: a request without credentials gets no error code; a bad token is invalid_token.
      bearer === 'none' || bearer === 'query' ? '' : 'error="invalid_token"',
    ].filter(Boolean)
    const challenge = params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer'
    const refusal = new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null }), {
      status: this.faulty('forbidden') ? 403 : 401,
      headers: { 'content-type': 'application/json', ...(this.faulty('no-challenge') ? {} : { 'www-authenticate': challenge }) },
    })
    return { bearer, refusal }
  }

  /**
   * The step-up of `spec.stepUpScope`: a 403 `insufficient_scope` for a tools/call whose (valid)
   * token lacks the scope, naming the scopes it holds plus the one it needs, as the minimum
   * approach of MCP 2025-11-25 "Server Scope Management" suggests; undefined otherwise.
   */
  scopeRefusal(request: Request, method: string | undefined): Response | undefined {
    const needed = this.spec.stepUpScope
    if (!needed || method !== 'tools/call') return undefined
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
    const granted = (token ? this.accessTokens.get(token)?.scope : undefined)?.split(' ').filter(Boolean) ?? []
    if (granted.includes(needed)) return undefined
    const url = new URL(request.url)
    const scope = [...granted, needed].join(' ')
    const challenge = `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${this.resourceMetadataUrl(url.origin)}"`
    return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Forbidden: insufficient scope' }, id: null }), {
      status: 403,
      headers: { 'content-type': 'application/json', 'www-authenticate': challenge },
    })
  }

  private classify(request: Request, url: URL): BearerKind {
    if (url.searchParams.has('access_token')) return 'query'
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
    if (token === undefined) return 'none'
    if (this.spec.refuseAllTokens) return 'refused'
    if (this.spec.staticTokens.includes(token)) return 'valid'
    const issued = this.accessTokens.get(token)
    if (!issued) return this.faulty('accept-any-token') ? 'valid' : 'unknown'
    return Date.now() >= issued.expiresAt ? 'expired' : 'valid'
  }

  private methods(): string[] {
    if (this.spec.authMethods) return this.spec.authMethods
    return TOKEN_AUTH_METHODS.filter((method) => (method === 'private_key_jwt' ? this.spec.publicKey !== undefined : this.spec.clientSecret !== undefined))
  }

  private serverMetadata(origin: string) {
    const code = this.front
      ? {
          code_challenge_methods_supported: ['S256'],
          authorization_response_iss_parameter_supported: true,
          ...(this.spec.registration ? { registration_endpoint: `${origin}${REGISTER}` } : {}),
        }
      : {}
    return {
      ...code,
      issuer: origin,
      // Required by RFC 8414 for servers with an authorization endpoint; this one serves none (headless grants only).
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}${TOKEN}`,
      response_types_supported: ['code'],
      grant_types_supported: this.front ? ['authorization_code', 'client_credentials', 'refresh_token'] : ['client_credentials', 'refresh_token'],
      token_endpoint_auth_methods_supported: this.front ? [...this.methods(), 'none'] : this.methods(),
      token_endpoint_auth_signing_alg_values_supported: ['RS256', 'ES256'],
    }
  }

  private async token(request: Request, origin: string): Promise<OAuthAnswer> {
    const form = new URLSearchParams(await request.text())
    const grant = form.get('grant_type') ?? ''
    const { clientAuth, authenticated } = this.authenticate(request, form, origin)
    const resource = form.get('resource') ?? undefined
    const scope = form.get('scope') ?? undefined
    const record = (outcome: string): TokenRecord => ({ grant, clientAuth, outcome, ...(resource ? { resource } : {}), ...(scope ? { scope } : {}) })
    if (!authenticated) return { response: oauthError(401, 'invalid_client', 'client authentication failed'), token: record('invalid_client') }
    // RFC 8707 §2: a resource this server does not serve (or none, where MCP requires one) is invalid_target.
    if (this.spec.requireResource && resource !== `${origin}${this.endpoint}`) {
      return { response: oauthError(400, 'invalid_target', `the token request names no resource this server protects (expected ${origin}${this.endpoint})`), token: record('invalid_target') }
    }
    if (grant === 'refresh_token') {
      const presented = form.get('refresh_token') ?? ''
      // A revoked refresh token is one the server no longer honours: every one it issued, in that mode.
      if (this.spec.refreshTokens === 'revoked' || !this.refreshTokens.delete(presented)) {
        return { response: oauthError(400, 'invalid_grant', 'the refresh token is invalid or revoked'), token: record('invalid_grant') }
      }
    } else if (grant === 'authorization_code' && this.front) {
      for (const field of ['code', 'code_verifier']) {
        const value = form.get(field)
        if (value) this.hooks.presented?.(value)
      }
      const redeemed = this.front.redeem(form, clientAuth === 'none' ? (form.get('client_id') ?? '') : this.spec.clientId)
      if (redeemed === 'invalid_grant') return { response: oauthError(400, 'invalid_grant', 'the code is invalid, used, or not for this client, redirect_uri or verifier'), token: record('invalid_grant') }
      return { response: json(200, this.issue(redeemed.scope)), token: record('issued') }
    } else if (grant !== 'client_credentials' || clientAuth === 'none') {
      return { response: oauthError(400, 'unsupported_grant_type', `grant_type ${JSON.stringify(grant)} is not supported`), token: record('unsupported_grant_type') }
    }
    return { response: json(200, this.issue(scope)), token: record('issued') }
  }

  private issue(scope: string | undefined) {
    const access = `fixture-at-${randomHex(this.random, 24)}`
    const lifetime = this.spec.tokenLifetimeMs
    this.accessTokens.set(access, { expiresAt: lifetime === undefined ? Infinity : Date.now() + lifetime, ...(scope ? { scope } : {}) })
    const refresh = this.spec.refreshTokens === 'none' ? undefined : `fixture-rt-${randomHex(this.random, 24)}`
    if (refresh) this.refreshTokens.add(refresh)
    this.hooks.issued?.(access)
    if (refresh) this.hooks.issued?.(refresh)
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: lifetime === undefined ? 3600 : Math.max(1, Math.ceil(lifetime / 1000)),
      ...(refresh ? { refresh_token: refresh } : {}),
      ...(scope ? { scope } : {}),
    }
  }

  /** RFC 6749 §2.3.1 (Basic or form secret) and RFC 7523 §2.2 (a signed assertion); one method per request. */
  private authenticate(request: Request, form: URLSearchParams, origin: string): { clientAuth: string; authenticated: boolean } {
    const allowed = this.methods()
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
    if (basic !== undefined) {
      const [id = '', secret = ''] = Buffer.from(basic, 'base64').toString().split(':').map(safeDecode)
      return { clientAuth: 'client_secret_basic', authenticated: allowed.includes('client_secret_basic') && id === this.spec.clientId && secret === this.spec.clientSecret }
    }
    if (form.has('client_secret')) {
      const ok = form.get('client_id') === this.spec.clientId && form.get('client_secret') === this.spec.clientSecret
      return { clientAuth: 'client_secret_post', authenticated: allowed.includes('client_secret_post') && ok }
    }
    const assertion = form.get('client_assertion')
    if (assertion !== null && form.get('client_assertion_type') === JWT_BEARER_ASSERTION) {
      const audiences = [`${origin}${TOKEN}`, origin, `${origin}/`]
      const ok = this.spec.publicKey !== undefined && verifyClientAssertion(assertion, this.spec.publicKey, this.spec.clientId, audiences)
      return { clientAuth: 'private_key_jwt', authenticated: allowed.includes('private_key_jwt') && ok }
    }
    // A public client (the authorization-code grant's): its id alone, when it has no credential to present.
    const publicId = form.get('client_id')
    return { clientAuth: 'none', authenticated: this.front?.isPublicClient(publicId) ?? false }
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })

/** RFC 6749 §5.2 error answer. */
const oauthError = (status: number, error: string, description: string) => json(status, { error, error_description: description })
