import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { describe, expect, it, onTestFinished } from 'vitest'
import * as z from 'zod'
import type { McpAuthService } from '../../src/host-contract.ts'
import { memoryStore } from '../../src/oauth/memory-store.ts'
import { simulatedBrowser } from '../support/browser.ts'
import { startHost, stateOf } from '../support/host.ts'
import { serveOAuth } from '../support/oauth-server.ts'
import { startHttpFixture } from '@mcp-bridge/fixtures-server'

function echoServer() {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' })
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo ${text}` }] }))
  return server
}

const config = (url: string) => ({ transport: 'streamable-http', serverName: 'guarded', url, auth: { type: 'authorization_code' }, reconnect: { enabled: false } })

describe('the bridge signing in with the authorization-code grant', () => {
  it('signs in through the host hook on the first 401, calls with the token, and logs no secret', async () => {
    const server = await serveOAuth(echoServer, { clientId: 'unused', authorize: 'approve', registration: true, refreshTokens: 'valid' })
    const browser = simulatedBrowser()
    const host = await startHost()
    const service: McpAuthService = { credentials: memoryStore(), signIn: browser.signIn }
    host.ctx.provide('mcpAuth')
    host.ctx.set('mcpAuth', service)
    await host.load(config(server.url))
    expect(await host.tools.execute('mcp__guarded__echo', { text: 'hi' })).toMatchObject({ isError: false, content: [{ text: 'echo hi' }] })
    expect(server.tokenRequests).toEqual([{ grantType: 'authorization_code', clientAuth: 'none', accepted: true }])
    // The canary check: the code and the verifier (both presented at the token endpoint) and every token.
    expect(server.presented).toHaveLength(2)
    const text = host.logs.join('\n')
    for (const secret of [...server.presented, ...server.issued]) expect(text).not.toContain(secret)
  })

  it('keeps the code of a rejected redirect out of the logs and the call error', async () => {
    const server = await serveOAuth(echoServer, { clientId: 'unused', authorize: 'wrong-state', registration: true })
    const browser = simulatedBrowser()
    const host = await startHost()
    host.ctx.provide('mcpAuth')
    host.ctx.set('mcpAuth', { credentials: memoryStore(), signIn: browser.signIn } satisfies McpAuthService)
    const fiber = await host.load(config(server.url))
    expect(stateOf(fiber)).toMatchObject({ kind: 'stopped', reason: expect.stringContaining('does not carry the state of this request') })
    const code = new URL(browser.visited.find((url) => url.includes('/callback?'))!).searchParams.get('code')!
    expect(code).toMatch(/^fixture-code-/)
    expect(`${host.logs.join('\n')}\n${JSON.stringify(stateOf(fiber))}`).not.toContain(code)
  })

  it('steps up on a 403 insufficient_scope: a second sign-in for the scopes it names, then the call goes through', async () => {
    const fx = await startHttpFixture({ tools: [{ name: 'echo' }], http: { oauth: { clientId: 'unused', authorize: 'approve', registration: true, scopes: ['tools'], stepUpScope: 'admin' } } }, { memoryWire: true })
    onTestFinished(() => fx.close())
    const browser = simulatedBrowser()
    const host = await startHost()
    host.ctx.provide('mcpAuth')
    host.ctx.set('mcpAuth', { credentials: memoryStore(), signIn: browser.signIn } satisfies McpAuthService)
    await host.load(config(fx.url))
    expect(await host.tools.execute('mcp__guarded__echo', {})).toMatchObject({ isError: false })
    const asked = browser.visited.filter((url) => url.includes('/authorize?')).map((url) => new URL(url).searchParams.get('scope'))
    expect(asked).toEqual(['tools', 'tools admin'])
    expect(fx.wire!.http.filter((entry) => entry.status === 403)).toHaveLength(1)
  })

  it('refuses in a headless host with one line naming the server', async () => {
    const server = await serveOAuth(echoServer, { clientId: 'unused', authorize: 'approve', registration: true })
    const host = await startHost()
    const fiber = await host.load(config(server.url))
    expect(stateOf(fiber)).toMatchObject({ kind: 'stopped', reason: expect.stringContaining('server "guarded" needs a person to sign in at') })
    expect(host.logs.join('\n')).toContain('run `mcp-bridge login guarded` first')
  })
})
