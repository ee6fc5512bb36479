import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { describe, expect, it } from 'vitest'
import type { SignInRequest } from '../../src/host-contract.ts'
import { AuthorizationCodeFlow, type CodeFlowConfig } from '../../src/oauth/flow.ts'
import { memoryStore } from '../../src/oauth/memory-store.ts'
import { simulatedBrowser } from '../support/browser.ts'
import { serveOAuth, type OAuthOptions } from '../support/oauth-server.ts'

const echo = () => new McpServer({ name: 'guarded', version: '1.0.0' })
const signal = () => AbortSignal.timeout(20_000)

async function setup(options: Partial<OAuthOptions> = {}, config: CodeFlowConfig = {}, signIn?: (r: SignInRequest) => Promise<void>) {
  const server = await serveOAuth(echo, { clientId: 'preregistered', authorize: 'approve', registration: true, ...options })
  const browser = simulatedBrowser()
  const store = memoryStore()
  const learned: string[] = []
  const flow = (s = store) =>
    new AuthorizationCodeFlow({ serverName: 'guarded', serverUrl: new URL(server.url), config, store: s, signIn: signIn ?? browser.signIn, learnSecret: (v) => void learned.push(v) })
  return { server, browser, store, learned, flow }
}

describe('the authorization-code flow against the fixture authorization server', () => {
  it('registers a native client, signs in with PKCE S256 and state, and keeps the tokens under the issuer', async () => {
    const { server, browser, store, learned, flow } = await setup({ refreshTokens: 'valid', requireResource: true })
    const f = flow()
    await f.grantWith(fetch)({}, signal())
    expect(f.current()).toBe(server.issued[0])
    const authorize = new URL(browser.visited[0]!)
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      resource: server.url,
      redirect_uri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
      client_id: expect.stringMatching(/^fixture-client-/),
    })
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{20,}$/)
    expect(server.tokenRequests).toEqual([{ grantType: 'authorization_code', clientAuth: 'none', accepted: true }])
    const record = await store.load(server.issuer)
    expect(record?.client?.clientId).toBe(authorize.searchParams.get('client_id'))
    expect(record?.tokens[server.url]).toMatchObject({ accessToken: server.issued[0], refreshToken: server.issued[1] })
    // Every secret of the exchange was taught to the redactor: the code, the verifier, both tokens.
    const code = new URL(browser.visited[1]!).searchParams.get('code')!
    expect(learned).toEqual(expect.arrayContaining([code, server.issued[0], server.issued[1]]))
    expect(learned.some((v) => v.length === 43)).toBe(true)
  })

  it('uses the pre-registered client id from the config before registering', async () => {
    const { server, browser, flow } = await setup({}, { clientId: 'preregistered' })
    await flow().grantWith(fetch)({}, signal())
    expect(new URL(browser.visited[0]!).searchParams.get('client_id')).toBe('preregistered')
    expect(server.tokenRequests).toEqual([{ grantType: 'authorization_code', clientAuth: 'none', accepted: true }])
  })

  it('authenticates a confidential pre-registered client with its secret at the token endpoint', async () => {
    const { server, flow } = await setup({ clientId: 'kit', clientSecret: 'kit-secret-0123456789' }, { clientId: 'kit', clientSecret: 'kit-secret-0123456789' })
    await flow().grantWith(fetch)({}, signal())
    expect(server.tokenRequests).toEqual([{ grantType: 'authorization_code', clientAuth: 'basic', accepted: true }])
  })

  it('asks for the challenge scope first, else every scopes_supported', async () => {
    const challenged = await setup({ scopes: ['tools', 'files'] })
    await challenged.flow().grantWith(fetch)({ scope: 'files:write' }, signal())
    expect(new URL(challenged.browser.visited[0]!).searchParams.get('scope')).toBe('files:write')
    const fallback = await setup({ scopes: ['tools', 'files'] })
    await fallback.flow().grantWith(fetch)({}, signal())
    expect(new URL(fallback.browser.visited[0]!).searchParams.get('scope')).toBe('tools files')
  })

  it('renews with the stored refresh token, without a person, in a later process', async () => {
    const { server, store, flow } = await setup({ refreshTokens: 'valid' })
    await flow().grantWith(fetch)({}, signal())
    let asked = 0
    const later = new AuthorizationCodeFlow({ serverName: 'guarded', serverUrl: new URL(server.url), config: {}, store, signIn: () => void asked++, learnSecret: () => {} })
    await later.grantWith(fetch)({}, signal())
    expect(asked).toBe(0)
    expect(later.current()).toBe(server.issued[2])
    expect(server.tokenRequests.map((r) => r.grantType)).toEqual(['authorization_code', 'refresh_token'])
  })

  it('never presents credentials stored under another issuer', async () => {
    const { server, store, browser, flow } = await setup()
    await store.save({ issuer: 'https://other.example', client: { clientId: 'elsewhere' }, tokens: {} })
    await store.save({ issuer: 'https://other.example/', tokens: {} })
    await flow().grantWith(fetch)({}, signal())
    expect(new URL(browser.visited[0]!).searchParams.get('client_id')).not.toBe('elsewhere')
    expect(await store.issuers()).toContain(server.issuer)
  })

  it.each([
    ['wrong-iss', /comes from issuer "https:\/\/attacker.example", not "http:\/\/127.0.0.1:\d+" \(RFC 9207/],
    ['no-iss', /carries no iss, which .* advertises it always sends \(RFC 9207\): rejected/],
    ['wrong-state', /does not carry the state of this request: rejected/],
    ['deny', /refused the sign-in: "access_denied"/],
  ] as const)('rejects the authorization response of the %s variant before any token request', async (variant, message) => {
    const { server, flow } = await setup({ authorize: variant })
    await expect(flow().grantWith(fetch)({}, signal())).rejects.toThrow(message)
    expect(server.tokenRequests).toEqual([])
  })

  it('refuses a headless sign-in with one line naming the server', async () => {
    const { server } = await setup()
    const flow = new AuthorizationCodeFlow({ serverName: 'guarded', serverUrl: new URL(server.url), config: {}, store: memoryStore(), learnSecret: () => {} })
    await expect(flow.grantWith(fetch)({}, signal())).rejects.toThrow(/^server "guarded" needs a person to sign in at http:\/\/127.0.0.1:\d+ and this host has no sign-in hook: run `mcp-bridge login guarded` first$/)
  })

  it('stops waiting for the redirect when its deadline passes, leaving nothing listening', async () => {
    let redirect: string | undefined
    const { flow } = await setup({}, {}, async ({ url }) => void (redirect = new URL(url).searchParams.get('redirect_uri')!))
    const controller = new AbortController()
    const pending = flow().grantWith(fetch)({}, controller.signal)
    await expect.poll(() => redirect).toBeDefined()
    controller.abort(new Error('deadline'))
    await expect(pending).rejects.toThrow('deadline')
    await expect(fetch(redirect!)).rejects.toThrow()
  })

  it('gives up on a scope that sign-ins keep granting and the server keeps asking for', async () => {
    const { flow, browser, server } = await setup({ refreshTokens: 'valid' })
    const f = flow()
    await f.grantWith(fetch)({}, signal())
    // A 403 insufficient_scope: each step-up is a sign-in asking for the challenged scope, a few times at most.
    for (let i = 0; i < 2; i++) await f.grantWith(fetch)({ scope: 'admin', insufficientScope: true }, signal())
    expect(new URL(browser.visited.at(-2)!).searchParams.get('scope')).toBe('admin')
    await expect(f.grantWith(fetch)({ scope: 'admin', insufficientScope: true }, signal())).rejects.toThrow(/asked for more scope \("admin"\) again after 2 sign-ins for it/)
    expect(server.tokenRequests.map((r) => r.grantType)).toEqual(['authorization_code', 'authorization_code', 'authorization_code'])
  })
})
