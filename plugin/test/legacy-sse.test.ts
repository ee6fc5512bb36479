import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { afterEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { serveOAuth } from './support/oauth-server.ts'
import { serveLegacySse } from './support/sse-server.ts'
import { startHost, stateOf, whenTools } from './support/host.ts'

function echoServer() {
  const server = new McpServer({ name: 'legacy', version: '1.0.0' })
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo ${text}` }] }))
  return server
}

const fast = { reconnect: { initialDelayMs: 10, maxDelayMs: 20 } }

afterEach(() => {
  delete process.env.MCP_TEST_CLIENT_SECRET
})

describe('legacy HTTP+SSE (2024-11-05)', () => {
  it('transport "sse" lists and calls tools over the event stream and its POST endpoint', async () => {
    const server = await serveLegacySse(echoServer)
    const host = await startHost()
    await host.load({ transport: 'sse', serverName: 'legacy', url: server.url, ...fast })
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__legacy__echo'])
    expect(await host.tools.execute('mcp__legacy__echo', { text: 'old' })).toMatchObject({ isError: false, content: [{ text: 'echo old' }] })
    expect(server.requests[0]).toBe('GET /sse')
    expect(server.requests).not.toContain('POST /sse')
  })

  it('a dropped event stream is a lost connection: the bridge opens a new session and the tools come back', async () => {
    const server = await serveLegacySse(echoServer)
    const host = await startHost()
    const fiber = await host.load({ transport: 'sse', serverName: 'legacy', url: server.url, ...fast })
    server.dropStreams()
    await expect.poll(() => server.requests.filter((r) => r === 'GET /sse').length).toBe(2)
    await expect.poll(() => stateOf(fiber)?.kind).toBe('connected')
    await whenTools(host, (names) => names.includes('mcp__legacy__echo'))
    expect(await host.tools.execute('mcp__legacy__echo', { text: 'back' })).toMatchObject({ isError: false, content: [{ text: 'echo back' }] })
  })

  it('streamable-http with sseFallback probes, tries the initialize POST, then falls back as the spec describes', async () => {
    const server = await serveLegacySse(echoServer)
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'legacy', url: server.url, sseFallback: true, ...fast })
    // The server/discover probe and the initialize POST are both refused (405): a legacy server.
    expect(server.requests.slice(0, 3)).toEqual(['POST /sse', 'POST /sse', 'GET /sse'])
    expect(await host.tools.execute('mcp__legacy__echo', { text: 'fallback' })).toMatchObject({ isError: false, content: [{ text: 'echo fallback' }] })
  })

  it('without sseFallback, a legacy-only server is a failed connection that names the HTTP status', async () => {
    const server = await serveLegacySse(echoServer)
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'legacy', url: server.url, ...fast, reconnect: { enabled: false } })
    expect(server.requests).toEqual(['POST /sse', 'POST /sse'])
    expect(host.logs.join('\n')).toMatch(/HTTP 405/)
  })

  it('with OAuth, a server that refuses every token ends after a bounded number of grants instead of looping', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = 'cs-0123456789abcdef0123'
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: 'cs-0123456789abcdef0123', refuseAllTokens: true }, serveLegacySse)
    const host = await startHost()
    const auth = { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer }
    const fiber = await host.load({ transport: 'sse', serverName: 'legacy', url: server.url, auth, ...fast })
    expect(stateOf(fiber)).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/refused a freshly issued token \(HTTP 401/) })
    // The SDK's legacy client would re-authorise on every 401; the bridge allows one fresh token.
    expect(server.tokenRequests).toHaveLength(1)
    expect(server.tokenRequests.every((r) => r.accepted)).toBe(true)
  })

  it('with OAuth, gets a token and works over the legacy transport', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = 'cs-0123456789abcdef0123'
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: 'cs-0123456789abcdef0123' }, serveLegacySse)
    const host = await startHost()
    const auth = { type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer: server.issuer }
    await host.load({ transport: 'sse', serverName: 'legacy', url: server.url, auth, ...fast })
    expect(await host.tools.execute('mcp__legacy__echo', { text: 'authorised' })).toMatchObject({ isError: false, content: [{ text: 'echo authorised' }] })
    expect(server.tokenRequests).toHaveLength(1)
  })
})
