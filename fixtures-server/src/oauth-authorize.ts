import { createHash } from 'node:crypto'
import { randomHex } from './prng.ts'
import type { OAuthSpec } from './schema.ts'

/** What an authorization code stands for until it is exchanged (once). */
interface Grant {
  clientId: string
  redirectUri: string
  challenge: string
  resource?: string
  scope?: string
}

/**
 * The front channel of the fixture's authorization server: the authorization endpoint (RFC 6749
 * §4.1 with PKCE S256, RFC 7636 §4.4) that approves every valid request at once, so a test's
 * simulated browser needs only follow a redirect, and dynamic registration (RFC 7591) of public
 * native clients. `spec.authorize` picks the answer: `approve`, or a broken one for the kit to
 * judge a client by (another issuer's `iss`, no `iss`, another `state`, `access_denied`).
 */
export class AuthorizationEndpoint {
  private readonly codes = new Map<string, Grant>()
  /** Registered client id -> its redirect URIs. */
  private readonly clients = new Map<string, string[]>()

  constructor(
    private readonly spec: OAuthSpec,
    private readonly random: () => number,
  ) {}

  /** Whether `clientId` is a public client here: registered, or the configured one without a credential. */
  isPublicClient(clientId: string | null): boolean {
    if (clientId === null) return false
    return this.clients.has(clientId) || (clientId === this.spec.clientId && this.spec.clientSecret === undefined && this.spec.publicKey === undefined)
  }

  /** GET /authorize: a redirect to the client with a code (or the variant's answer), or a 400 when the redirect itself cannot be trusted. */
  authorize(url: URL, issuer: string): Response {
    const params = url.searchParams
    const clientId = params.get('client_id') ?? ''
    const redirectUri = params.get('redirect_uri') ?? ''
    if (!this.knows(clientId)) return plain(400, 'unknown client_id')
    if (!this.redirectAllowed(clientId, redirectUri)) return plain(400, 'redirect_uri is not registered for this client')
    const back = new URL(redirectUri)
    const state = params.get('state')
    const answer = this.spec.authorize ?? 'approve'
    if (state !== null) back.searchParams.set('state', answer === 'wrong-state' ? `${state}-other` : state)
    if (answer !== 'no-iss') back.searchParams.set('iss', answer === 'wrong-iss' ? 'https://attacker.example' : issuer)
    const refuse = (error: string, description: string) => {
      back.searchParams.set('error', error)
      back.searchParams.set('error_description', description)
      return redirect(back)
    }
    if (params.get('response_type') !== 'code') return refuse('unsupported_response_type', 'response_type must be code')
    const challenge = params.get('code_challenge')
    if (!challenge || params.get('code_challenge_method') !== 'S256') return refuse('invalid_request', 'PKCE with code_challenge_method S256 is required')
    if (answer === 'deny') return refuse('access_denied', 'the resource owner denied the request')
    const code = `fixture-code-${randomHex(this.random, 16)}`
    const resource = params.get('resource') ?? undefined
    const scope = params.get('scope') ?? undefined
    this.codes.set(code, { clientId, redirectUri, challenge, ...(resource ? { resource } : {}), ...(scope ? { scope } : {}) })
    back.searchParams.set('code', code)
    return redirect(back)
  }

  /**
   * The authorization_code grant's checks (RFC 6749 §4.1.3, RFC 7636 §4.6): a code used once, by
   * the client it was issued to, with the same redirect URI and the verifier of its challenge.
   * The grant it stood for, or an error code.
   */
  redeem(form: URLSearchParams, clientId: string): Grant | 'invalid_grant' {
    const code = form.get('code') ?? ''
    const grant = this.codes.get(code)
    this.codes.delete(code)
    if (!grant || grant.clientId !== clientId || grant.redirectUri !== form.get('redirect_uri')) return 'invalid_grant'
    const verifier = form.get('code_verifier') ?? ''
    if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return 'invalid_grant'
    return grant
  }

  /** POST /register (RFC 7591 §3.2.1): a public client for its redirect URIs. */
  async register(request: Request): Promise<Response> {
    let body: { redirect_uris?: unknown }
    try {
      body = (await request.json()) as typeof body
    } catch {
      return json(400, { error: 'invalid_client_metadata', error_description: 'the body is not JSON' })
    }
    const uris = body.redirect_uris
    if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string')) {
      return json(400, { error: 'invalid_redirect_uri', error_description: 'redirect_uris must be a non-empty array of strings' })
    }
    const clientId = `fixture-client-${randomHex(this.random, 8)}`
    this.clients.set(clientId, uris as string[])
    return json(201, { ...body, client_id: clientId, token_endpoint_auth_method: 'none' })
  }

  private knows(clientId: string): boolean {
    return this.clients.has(clientId) || clientId === this.spec.clientId
  }

  /**
   * A registered redirect URI; a loopback one matches on any port, as RFC 8252 §7.3 requires ("MUST
   * allow any port to be specified at the time of the request for loopback IP redirect URIs").
   * The configured client may use any loopback redirect.
   */
  private redirectAllowed(clientId: string, redirectUri: string): boolean {
    let url: URL
    try {
      url = new URL(redirectUri)
    } catch {
      return false
    }
    const loopback = url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]')
    const registered = this.clients.get(clientId)
    if (!registered) return clientId === this.spec.clientId && loopback
    const portless = (u: URL) => (loopback ? `${u.protocol}//${u.hostname}${u.pathname}${u.search}` : u.href)
    return registered.some((r) => {
      try {
        return portless(new URL(r)) === portless(url)
      } catch {
        return false
      }
    })
  }
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })
const plain = (status: number, text: string) => new Response(`${text}\n`, { status, headers: { 'content-type': 'text/plain' } })
const redirect = (to: URL) => new Response(null, { status: 302, headers: { location: to.href, 'cache-control': 'no-store' } })
