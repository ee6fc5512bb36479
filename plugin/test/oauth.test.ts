import { generateKeyPairSync } from 'node:crypto'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { parseConfig } from '../src/config.ts'
import { serveOAuth, type OAuthServer } from './support/oauth-server.ts'
import { startHost, stateOf } from './support/host.ts'

const SECRET = 'cs-9f8e7d6c5b4a39281706f5e4'
const variables = ['MCP_TEST_CLIENT_SECRET', 'MCP_TEST_PRIVATE_KEY', 'MCP_TEST_TOKEN']
afterEach(() => {
  for (const name of variables) delete process.env[name]
})

function echoServer() {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' })
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo ${text}` }] }))
  return server
}

const http = (server: OAuthServer, auth: Record<string, unknown>) => ({ transport: 'streamable-http', serverName: 'guarded', url: server.url, auth, reconnect: { initialDelayMs: 10, maxDelayMs: 20 } })

/** No credential the bridge held may appear in anything it wrote. */
function expectNoCredentials(lines: string[], server: OAuthServer, ...secrets: string[]) {
  const text = lines.join('\n')
  for (const value of [...secrets, ...server.issued]) expect(text).not.toContain(value)
}

describe('OAuth client credentials (client_secret_basic)', () => {
  it('discovers the authorization server, gets a token, and calls with it', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET })
    const host = await startHost()
    await host.load(http(server, { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer }))
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__guarded__echo'])
    expect(await host.tools.execute('mcp__guarded__echo', { text: 'hi' })).toMatchObject({ isError: false, content: [{ text: 'echo hi' }] })
    expect(server.tokenRequests).toEqual([{ grantType: 'client_credentials', clientAuth: 'basic', accepted: true }])
    expect(server.authorizations.filter((h) => h === `Bearer ${server.issued[0]}`).length).toBeGreaterThan(1)
    expectNoCredentials(host.logs, server, SECRET)
  })

  it('asks for the configured scope', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET })
    const host = await startHost()
    await host.load(http(server, { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer, scope: 'tools:read tools:call' }))
    expect(server.tokenRequests).toEqual([{ grantType: 'client_credentials', clientAuth: 'basic', accepted: true, scope: 'tools:read tools:call' }])
  })

  it('gets a fresh token once after a 401 (revoked or expired) and the call goes through', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET })
    const host = await startHost()
    await host.load(http(server, { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer }))
    server.revokeAll()
    expect(await host.tools.execute('mcp__guarded__echo', { text: 'again' })).toMatchObject({ isError: false, content: [{ text: 'echo again' }] })
    expect(server.tokenRequests).toHaveLength(2)
    // The budget refills once a token is accepted: a second revocation is survived too.
    server.revokeAll()
    expect(await host.tools.execute('mcp__guarded__echo', { text: 'third' })).toMatchObject({ isError: false })
    expect(server.tokenRequests).toHaveLength(3)
    expectNoCredentials(host.logs, server, SECRET)
  })

  it('fails a call as UNAUTHORIZED, saying no credentials were accepted, when the authorization server refuses a fresh token', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET })
    const host = await startHost()
    await host.load(http(server, { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer }))
    server.rotateClientSecret('cs-rotated-0123456789abcdef')
    server.revokeAll()
    expect(await host.tools.execute('mcp__guarded__echo', { text: 'again' })).toMatchObject({
      isError: true,
      error: { code: 'UNAUTHORIZED', message: expect.stringMatching(/^mcp__guarded__echo failed: echo failed: no accepted credentials: .*client authentication failed/) },
    })
    expectNoCredentials(host.logs, server, SECRET)
  })

  it('stops, without a retry loop, when the server refuses even a fresh token', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET, refuseAllTokens: true })
    const host = await startHost()
    const fiber = await host.load(http(server, { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer }))
    expect(stateOf(fiber)).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/refused the credentials .*HTTP 401.*after successful authentication.*fix the headers or auth/) })
    // One grant, one retry with its token, then the SDK's circuit breaker: stopped, not retried.
    expect(server.tokenRequests).toEqual([{ grantType: 'client_credentials', clientAuth: 'basic', accepted: true }])
    expect(host.tools.list()).toEqual([])
    expectNoCredentials([...host.logs, JSON.stringify(stateOf(fiber))], server, SECRET)
  })

  it('stops with the authorization server\'s reason when the client secret is wrong', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = 'cs-wrong-0123456789abcdef'
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET })
    const host = await startHost()
    const fiber = await host.load(http(server, { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer }))
    expect(stateOf(fiber)).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/client authentication failed/) })
    // The SDK tries once more after invalid_client (with its stored client information dropped); then it is over.
    expect(server.tokenRequests).toEqual([
      { grantType: 'client_credentials', clientAuth: 'basic', accepted: false },
      { grantType: 'client_credentials', clientAuth: 'basic', accepted: false },
    ])
    expectNoCredentials(host.logs, server, 'cs-wrong-0123456789abcdef')
  })

  it('never presents the credentials to an authorization server other than the configured issuer', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET })
    const host = await startHost()
    const fiber = await host.load(http(server, { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: 'https://auth.example.com' }))
    expect(server.tokenRequests).toEqual([])
    expect(stateOf(fiber)?.kind).not.toBe('connected')
    await fiber.dispose()
  })
})

describe('OAuth private_key_jwt', () => {
  it('authenticates with an RS256 assertion signed by the key from the environment', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    process.env.MCP_TEST_PRIVATE_KEY = pem
    const server = await serveOAuth(echoServer, { clientId: 'bridge-jwt', publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() })
    const host = await startHost()
    await host.load(http(server, { type: 'private_key_jwt', clientId: 'bridge-jwt', privateKeyEnv: 'MCP_TEST_PRIVATE_KEY', issuer: server.issuer }))
    expect(server.tokenRequests).toEqual([{ grantType: 'client_credentials', clientAuth: 'jwt', accepted: true }])
    expect(await host.tools.execute('mcp__guarded__echo', { text: 'jwt' })).toMatchObject({ isError: false, content: [{ text: 'echo jwt' }] })
    expectNoCredentials(host.logs, server, pem.split('\n')[1]!)
  })
})

describe('OAuth private_key_jwt with another algorithm', () => {
  it('signs with the configured algorithm (ES256 with a P-256 key)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    process.env.MCP_TEST_PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const server = await serveOAuth(echoServer, { clientId: 'bridge-ec', publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() })
    const host = await startHost()
    await host.load(http(server, { type: 'private_key_jwt', clientId: 'bridge-ec', privateKeyEnv: 'MCP_TEST_PRIVATE_KEY', algorithm: 'ES256', issuer: server.issuer }))
    expect(server.tokenRequests).toEqual([{ grantType: 'client_credentials', clientAuth: 'jwt', accepted: true }])
    expect(await host.tools.execute('mcp__guarded__echo', { text: 'ec' })).toMatchObject({ isError: false })
  })
})

describe('a given bearer token', () => {
  it('is sent as it is, and a 401 stops the connection', async () => {
    const server = await serveOAuth(echoServer, { clientId: 'unused', clientSecret: 'unused' })
    process.env.MCP_TEST_TOKEN = 'tok-0123456789abcdefabcdef'
    const host = await startHost()
    const fiber = await host.load(http(server, { type: 'bearer', tokenEnv: 'MCP_TEST_TOKEN' }))
    expect(server.authorizations[0]).toBe('Bearer tok-0123456789abcdefabcdef')
    expect(stateOf(fiber)).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/refused the credentials .*HTTP 401/) })
    expect(server.tokenRequests).toEqual([])
    expectNoCredentials(host.logs, server, 'tok-0123456789abcdefabcdef')
  })
})

describe('auth in the config', () => {
  const base = { transport: 'streamable-http', serverName: 'web', url: 'https://mcp.example.com/mcp' }
  const grant = { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: 'https://auth.example.com' }

  it('never takes a secret written in the file', () => {
    expect(() => parseConfig({ ...base, auth: { ...grant, clientSecret: 'x' } })).toThrow(
      /^mcp-client config: auth\.clientSecret is never read from the configuration: put the secret in an environment variable of the host and set auth\.clientSecretEnv to its name\.$/,
    )
  })

  it('names an unset variable and what to do', () => {
    expect(() => parseConfig({ ...base, auth: grant })).toThrow(/auth\.clientSecretEnv names MCP_TEST_CLIENT_SECRET, which is not set in the host's environment: export it/)
  })

  it('requires the issuer for the grants, and refuses fields of another type', () => {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    expect(() => parseConfig({ ...base, auth: { ...grant, issuer: undefined } })).toThrow(/auth\.issuer is required with auth\.type "client_credentials"/)
    expect(() => parseConfig({ ...base, auth: { ...grant, tokenEnv: 'X' } })).toThrow(/auth\.tokenEnv does not apply to auth\.type "client_credentials"/)
    expect(() => parseConfig({ ...base, auth: { ...grant, type: 'password' } })).toThrow(/auth\.type expected "client_credentials" \| "private_key_jwt" \| "bearer"/)
    expect(() => parseConfig({ ...base, headers: { Authorization: 'Bearer x' }, auth: grant })).toThrow(/auth and headers\.Authorization both set credentials/)
    // The credentials travel to the issuer: https, or http to this machine only.
    expect(() => parseConfig({ ...base, auth: { ...grant, issuer: 'http://auth.example.com' } })).toThrow(/auth\.issuer must be an https:\/\/ URL/)
    expect(parseConfig({ ...base, auth: { ...grant, issuer: 'http://127.0.0.1:9000' } }).transport).toBe('streamable-http')
  })

  it('belongs to the HTTP transports only', () => {
    expect(() => parseConfig({ transport: 'stdio', serverName: 'x', command: 'node', auth: grant })).toThrow(/"auth" only applies to transport "streamable-http"/)
  })

  it('defaults the JWT algorithm to RS256', () => {
    process.env.MCP_TEST_PRIVATE_KEY = 'pem'
    const config = parseConfig({ ...base, auth: { type: 'private_key_jwt', clientId: 'c', privateKeyEnv: 'MCP_TEST_PRIVATE_KEY', issuer: 'https://auth.example.com' } })
    expect(config.transport === 'streamable-http' && config.auth).toEqual({ type: 'private_key_jwt', clientId: 'c', privateKeyEnv: 'MCP_TEST_PRIVATE_KEY', issuer: 'https://auth.example.com', algorithm: 'RS256' })
  })
})
