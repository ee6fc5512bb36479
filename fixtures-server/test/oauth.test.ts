import { createHash, generateKeyPairSync } from 'node:crypto'
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { startHttpFixture, type BehaviourInput, type HttpFixture } from '../src/index.ts'

const SECRET = 'fixture-test-secret-0123456789'
const echo = { content: [{ type: 'text', text: '{}' }] }
const open: HttpFixture[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((fx) => fx.close()))
})

async function fixture(oauth: NonNullable<BehaviourInput['http']>['oauth']): Promise<HttpFixture> {
  const fx = await startHttpFixture({ tools: [{ name: 'echo' }], http: { oauth } }, { memoryWire: true })
  open.push(fx)
  return fx
}

const origin = (fx: HttpFixture) => new URL(fx.url).origin
const secretProvider = (fx: HttpFixture, secret = SECRET) => new ClientCredentialsProvider({ clientId: 'kit', clientSecret: secret, expectedIssuer: origin(fx) })

async function connect(fx: HttpFixture, authProvider?: OAuthClientProvider, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'oauth-fixture-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(fx.url), { ...(authProvider ? { authProvider } : {}), requestInit: { headers } }))
  return client
}

const tokenLog = (fx: HttpFixture) => fx.wire!.http.flatMap((entry) => (entry.token ? [entry.token] : []))
const bearers = (fx: HttpFixture) => fx.wire!.http.filter((entry) => entry.path === '/mcp').map((entry) => entry.bearer)

describe('the OAuth fixture (http.oauth)', () => {
  it('answers 401 with resource_metadata, serves both metadata documents and issues a client_credentials token', async () => {
    const fx = await fixture({ clientId: 'kit', clientSecret: SECRET, scopes: ['tools'] })
    const refused = await fetch(fx.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${origin(fx)}/.well-known/oauth-protected-resource/mcp", scope="tools"`)
    const resource = await (await fetch(`${origin(fx)}/.well-known/oauth-protected-resource/mcp`)).json()
    expect(resource).toEqual({ resource: fx.url, authorization_servers: [origin(fx)], bearer_methods_supported: ['header'], scopes_supported: ['tools'] })
    const metadata = await (await fetch(`${origin(fx)}/.well-known/oauth-authorization-server`)).json()
    expect(metadata).toMatchObject({ issuer: origin(fx), token_endpoint: `${origin(fx)}/token`, token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'] })

    const client = await connect(fx, secretProvider(fx))
    expect(await client.callTool({ name: 'echo' })).toEqual(echo)
    await client.close()
    expect(tokenLog(fx)).toEqual([{ grant: 'client_credentials', clientAuth: 'client_secret_basic', outcome: 'issued', resource: fx.url }])
    // The probe above, then the client's first initialize: no token; every request after the grant carries it.
    expect(bearers(fx).slice(0, 2)).toEqual(['none', 'none'])
    expect(bearers(fx).slice(2).every((kind) => kind === 'valid')).toBe(true)
  })

  it('takes client_secret_post when that is all it advertises, and refuses a wrong secret as invalid_client', async () => {
    const fx = await fixture({ clientId: 'kit', clientSecret: SECRET, authMethods: ['client_secret_post'] })
    await (await connect(fx, secretProvider(fx))).close()
    await expect(connect(fx, secretProvider(fx, 'not-the-secret'))).rejects.toThrow(/client authentication failed/)
    expect(tokenLog(fx).map(({ clientAuth, outcome }) => `${clientAuth}:${outcome}`)).toEqual([
      'client_secret_post:issued',
      // The SDK drops its client information and tries once more after invalid_client.
      'client_secret_post:invalid_client',
      'client_secret_post:invalid_client',
    ])
  })

  it('verifies a private_key_jwt assertion against the configured public key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const fx = await fixture({ clientId: 'kit-jwt', publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() })
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const provider = new PrivateKeyJwtProvider({ clientId: 'kit-jwt', privateKey: pem, algorithm: 'RS256', expectedIssuer: origin(fx) })
    await (await connect(fx, provider)).close()
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    await expect(connect(fx, new PrivateKeyJwtProvider({ clientId: 'kit-jwt', privateKey: other, algorithm: 'RS256', expectedIssuer: origin(fx) }))).rejects.toThrow()
    expect(tokenLog(fx).map(({ clientAuth, outcome }) => `${clientAuth}:${outcome}`)).toEqual(['private_key_jwt:issued', 'private_key_jwt:invalid_client', 'private_key_jwt:invalid_client'])
  })

  it('accepts a static token, and counts a token in the query string as misplaced', async () => {
    const fx = await fixture({ clientId: 'kit', staticTokens: ['given-token-0123456789'] })
    await (await connect(fx, undefined, { authorization: 'Bearer given-token-0123456789' })).close()
    const queried = await fetch(`${fx.url}?access_token=given-token-0123456789`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(queried.status).toBe(401)
    expect(bearers(fx).at(-1)).toBe('query')
    expect(tokenLog(fx)).toEqual([])
  })

  it('expires tokens after tokenLifetimeMs; the SDK gets a fresh one on the 401', async () => {
    const fx = await fixture({ clientId: 'kit', clientSecret: SECRET, tokenLifetimeMs: 500 })
    const client = await connect(fx, secretProvider(fx))
    // The token's own lifetime is the event waited for: nothing else could make it expire.
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(await client.callTool({ name: 'echo' })).toEqual(echo)
    await client.close()
    expect(bearers(fx)).toContain('expired')
    expect(tokenLog(fx).map((t) => t.outcome).slice(-2)).toEqual(['issued', 'issued'])
  })

  it('refreshes with a valid refresh token, refuses a revoked one as invalid_grant', async () => {
    for (const mode of ['valid', 'revoked'] as const) {
      const fx = await fixture({ clientId: 'kit', clientSecret: SECRET, refreshTokens: mode })
      const first = await fetch(`${origin(fx)}/token`, { method: 'POST', headers: { authorization: `Basic ${btoa(`kit:${SECRET}`)}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })
      const { refresh_token: refresh } = (await first.json()) as { refresh_token: string }
      expect(refresh).toMatch(/^fixture-rt-/)
      const again = await fetch(`${origin(fx)}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh, client_id: 'kit', client_secret: SECRET }).toString() })
      expect(again.status).toBe(mode === 'valid' ? 200 : 400)
      expect(tokenLog(fx).at(-1)).toEqual({ grant: 'refresh_token', clientAuth: 'client_secret_post', outcome: mode === 'valid' ? 'issued' : 'invalid_grant' })
    }
  })

  it('refuses every token in refuseAllTokens mode: one grant, one retry, then the SDK gives up', async () => {
    const fx = await fixture({ clientId: 'kit', clientSecret: SECRET, refuseAllTokens: true })
    await expect(connect(fx, secretProvider(fx))).rejects.toThrow(/401/)
    expect(bearers(fx)).toEqual(['none', 'refused'])
    expect(tokenLog(fx)).toHaveLength(1)
  })

  it('with requireResource, refuses a token request without the RFC 8707 resource of its endpoint as invalid_target', async () => {
    const fx = await fixture({ clientId: 'kit', clientSecret: SECRET, requireResource: true })
    await (await connect(fx, secretProvider(fx))).close()
    const bare = await fetch(`${origin(fx)}/token`, { method: 'POST', headers: { authorization: `Basic ${btoa(`kit:${SECRET}`)}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })
    expect(bare.status).toBe(400)
    expect(tokenLog(fx).map((t) => t.outcome)).toEqual(['issued', 'invalid_target'])
  })

  it('never writes a secret or a token into the wire log', async () => {
    const fx = await fixture({ clientId: 'kit', clientSecret: SECRET, refreshTokens: 'valid' })
    await (await connect(fx, secretProvider(fx))).close()
    const log = JSON.stringify([fx.wire!.http, fx.wire!.entries])
    expect(log).not.toContain(SECRET)
    expect(log).not.toMatch(/fixture-(at|rt)-/)
  })
})

describe('the authorization endpoint of the OAuth fixture (http.oauth.authorize)', () => {
  const s256 = (text: string) => createHash('sha256').update(text).digest('base64url')
  const verifier = 'v'.repeat(43)
  const authorize = (fx: HttpFixture, clientId: string, redirect: string, extra: Record<string, string> = {}) =>
    fetch(`${origin(fx)}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirect, code_challenge: s256(verifier), code_challenge_method: 'S256', state: 'st', ...extra })}`, { redirect: 'manual' })
  const token = (fx: HttpFixture, form: Record<string, string>) =>
    fetch(`${origin(fx)}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() })

  it('registers a native client, approves with a code for any loopback port, and exchanges it once, with the verifier', async () => {
    const fx = await fixture({ clientId: 'kit', authorize: 'approve', registration: true })
    const metadata = await (await fetch(`${origin(fx)}/.well-known/oauth-authorization-server`)).json()
    expect(metadata).toMatchObject({ code_challenge_methods_supported: ['S256'], authorization_response_iss_parameter_supported: true, registration_endpoint: `${origin(fx)}/register` })
    const registered = await (await fetch(`${origin(fx)}/register`, { method: 'POST', body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:1/callback'], application_type: 'native' }) })).json()
    const redirect = 'http://127.0.0.1:4321/callback'
    const answer = await authorize(fx, registered.client_id, redirect)
    expect(answer.status).toBe(302)
    const back = new URL(answer.headers.get('location')!)
    expect(back.searchParams.get('state')).toBe('st')
    expect(back.searchParams.get('iss')).toBe(origin(fx))
    const code = back.searchParams.get('code')!
    const form = { grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: registered.client_id }
    expect((await token(fx, { ...form, code_verifier: 'w'.repeat(43) })).status).toBe(400)
    // The wrong verifier spent the code: a code is good for one exchange, whatever its outcome.
    expect((await token(fx, { ...form, code_verifier: verifier })).status).toBe(400)
    const second = new URL((await authorize(fx, registered.client_id, redirect)).headers.get('location')!).searchParams.get('code')!
    const issued = await token(fx, { ...form, code: second, code_verifier: verifier })
    expect(issued.status).toBe(200)
    expect(await issued.json()).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^fixture-at-/) })
  })

  it('refuses a redirect URI the client did not register, and a request without S256', async () => {
    const fx = await fixture({ clientId: 'kit', authorize: 'approve', registration: true })
    expect((await authorize(fx, 'kit', 'https://attacker.example/callback')).status).toBe(400)
    const plain = new URL((await authorize(fx, 'kit', 'http://127.0.0.1:9/callback', { code_challenge_method: 'plain' })).headers.get('location')!)
    expect(plain.searchParams.get('error')).toBe('invalid_request')
  })

  it.each([
    ['wrong-iss', (u: URL) => u.searchParams.get('iss') === 'https://attacker.example'],
    ['no-iss', (u: URL) => !u.searchParams.has('iss')],
    ['wrong-state', (u: URL) => u.searchParams.get('state') === 'st-other'],
    ['deny', (u: URL) => u.searchParams.get('error') === 'access_denied' && !u.searchParams.has('code')],
  ] as const)('answers the broken variant %s', async (variant, broken) => {
    const fx = await fixture({ clientId: 'kit', authorize: variant })
    expect(broken(new URL((await authorize(fx, 'kit', 'http://127.0.0.1:9/callback')).headers.get('location')!))).toBe(true)
  })
})

describe('the step-up of the OAuth fixture (http.oauth.stepUpScope)', () => {
  it('answers a tools/call whose token lacks the scope with 403 insufficient_scope naming held and needed scopes', async () => {
    const fx = await fixture({ clientId: 'kit', clientSecret: SECRET, scopes: ['tools'], stepUpScope: 'admin' })
    const grant = (scope: string) =>
      fetch(`${origin(fx)}/token`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`kit:${SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}` })
    const narrow = (await (await grant('tools')).json()).access_token
    const wide = (await (await grant('tools admin')).json()).access_token
    const call = (token: string) =>
      fetch(fx.url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }) })
    const refused = await call(narrow)
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="tools admin", resource_metadata="${origin(fx)}/.well-known/oauth-protected-resource/mcp"`)
    // With the scope, the call reaches the MCP endpoint (which wants a session first: not a scope refusal).
    expect((await call(wide)).status).not.toBe(403)
  })
})
