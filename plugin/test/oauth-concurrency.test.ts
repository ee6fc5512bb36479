import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { serveOAuth, type OAuthServer } from './support/oauth-server.ts'
import { serveLegacySse } from './support/sse-server.ts'
import { startHost } from './support/host.ts'

/**
 * Issue 34 item 2: calls in flight when the token expires all meet a 401 at once. Every one of
 * them must wait for the one renewal and go through with its token; only the authorization
 * server's refusal may fail them, with its own reason.
 */
const SECRET = 'cs-4b1d7e0a9c2f5863d1e7'
const CALLS = 20

afterEach(() => {
  delete process.env.MCP_TEST_CLIENT_SECRET
})

function echoServer() {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' })
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo ${text}` }] }))
  return server
}

const grant = (server: OAuthServer) => ({ type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer })

const transports = [
  { name: 'Streamable HTTP', transport: 'streamable-http', serve: undefined },
  { name: 'legacy HTTP+SSE', transport: 'sse', serve: serveLegacySse },
] as const

describe.each(transports)('OAuth renewal under concurrency ($name)', ({ transport, serve }) => {
  async function connected() {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET }, serve)
    const host = await startHost()
    await host.load({ transport, serverName: 'guarded', url: server.url, auth: grant(server), reconnect: { initialDelayMs: 10, maxDelayMs: 20 } })
    expect(server.tokenRequests).toHaveLength(1)
    const calls = () => Promise.all(Array.from({ length: CALLS }, (_, i) => host.tools.execute('mcp__guarded__echo', { text: `c${i}` })))
    return { server, host, calls }
  }

  it(`${CALLS} concurrent calls across a token expiry all succeed, with one token request`, async () => {
    const { server, host, calls } = await connected()
    server.expireAll()
    const results = await calls()
    for (const [i, result] of results.entries()) expect(result).toMatchObject({ isError: false, content: [{ text: `echo c${i}` }] })
    expect(server.tokenRequests).toEqual([
      { grantType: 'client_credentials', clientAuth: 'basic', accepted: true },
      { grantType: 'client_credentials', clientAuth: 'basic', accepted: true },
    ])
    // Every call after the renewal carried the one fresh token.
    const fresh = `Bearer ${server.issued.at(-1)}`
    expect(server.authorizations.filter((value) => value === fresh).length).toBeGreaterThanOrEqual(CALLS)
    expect(host.logs.join('\n')).not.toMatch(/client registration/)
  })

  it(`a refused renewal fails all ${CALLS} calls with the authorization server's reason, after one attempt`, async () => {
    const { server, calls } = await connected()
    server.rotateClientSecret('cs-rotated-0123456789abcdef')
    server.expireAll()
    const results = await calls()
    for (const result of results) {
      expect(result).toMatchObject({
        isError: true,
        error: { code: 'UNAUTHORIZED', message: expect.stringMatching(/^mcp__guarded__echo failed: echo failed: no accepted credentials: .*client authentication failed/) },
      })
    }
    // One renewal for all of them: the SDK's grant and its one retry after invalid_client.
    expect(server.tokenRequests.slice(1)).toEqual([
      { grantType: 'client_credentials', clientAuth: 'basic', accepted: false },
      { grantType: 'client_credentials', clientAuth: 'basic', accepted: false },
    ])
  })
})
