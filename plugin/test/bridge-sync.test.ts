import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { publicToolName } from '../src/index.ts'
import { closedPort, serveHttp } from './support/http-server.ts'
import { startHost, whenTools } from './support/host.ts'
import { changingListServer } from './support/scripted-server.ts'


const http = (url: string, extra: Record<string, unknown> = {}) => ({ transport: 'streamable-http', serverName: 'web', url, ...extra })

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } })

describe('discovery and re-sync', () => {
  it('follows list_changed: added tools appear, removed ones go, names stay stable', async () => {
    let tools = [tool('alpha'), tool('beta')]
    const scripted = changingListServer(() => tools)
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__web__alpha', 'mcp__web__beta'])

    tools = [tool('beta'), tool('gamma.v2')]
    await scripted.notify()
    const names = await whenTools(host, (n) => n.includes(publicToolName('web', 'gamma.v2')))
    expect(names).toEqual(['mcp__web__beta', publicToolName('web', 'gamma.v2')].sort())
  })

  it('ends its HTTP session with DELETE on dispose', async () => {
    const scripted = changingListServer(() => [tool('alpha')])
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    const fiber = await host.load(http(server.url))
    expect(server.sessions.size).toBe(1)
    await fiber.dispose()
    expect(server.sessions.size).toBe(0)
    expect(host.tools.list()).toEqual([])
    // Requests answered long ago must not be "cancelled" when the plugin goes away.
    expect(server.received.filter((m) => m.method === 'notifications/cancelled')).toEqual([])
  })

  it('sends the raw name on the wire, never the public name', async () => {
    const scripted = changingListServer(() => [tool('admin.reset')])
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    const publicName = publicToolName('web', 'admin.reset')
    expect(await host.tools.execute(publicName, {})).toMatchObject({ content: [{ text: 'called admin.reset' }] })
    const calls = server.received.filter((m) => m.method === 'tools/call')
    expect(calls.map((m) => m.params?.name)).toEqual(['admin.reset'])
  })

  it('rejects a list that repeats a raw name and keeps the previous generation', async () => {
    let tools = [tool('one')]
    const scripted = changingListServer(() => tools)
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    tools = [tool('two'), tool('two')]
    await scripted.notify()
    await expect.poll(() => host.logs.join('\n')).toMatch(/tool re-sync failed, keeping the previous tools: .*"two" more than once/)
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__web__one'])
  })

  it('starts with no tools when the first list is invalid, and recovers on the next list_changed', async () => {
    let tools = [tool('dup'), tool('dup')]
    const scripted = changingListServer(() => tools)
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    expect(host.tools.list()).toEqual([])
    expect(host.logs.join('\n')).toMatch(/tool list rejected, no tools registered/)
    tools = [tool('dup')]
    await scripted.notify()
    await whenTools(host, (n) => n.includes('mcp__web__dup'))
  })

  it('rolls back a generation when a foreign tool squats in its namespace', async () => {
    let tools = [tool('keep')]
    const scripted = changingListServer(() => tools)
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load(http(server.url))
    const squatter = host.ctx.plugin({
      inject: ['tools'],
      apply: (ctx: Context) =>
        void ctx.tools.register({ name: 'mcp__web__taken', description: 'squatter', parameters: { type: 'object' }, execute: async () => 'squat' }),
    })
    await squatter
    const seen: string[][] = []
    host.ctx.on('tools/change', (names) => void seen.push(names))

    tools = [tool('keep'), tool('fresh'), tool('taken')]
    await scripted.notify()
    await expect.poll(() => host.logs.join('\n')).toMatch(/tool registration failed, kept the previous 1 tools: tool "mcp__web__taken" is already registered/)
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__web__keep', 'mcp__web__taken'])
    expect(host.tools.get('mcp__web__taken')?.description).toBe('squatter')
    // No observer ever saw the half-registered generation (mcp__web__fresh).
    expect(seen.flat()).not.toContain('mcp__web__fresh')
  })

  it('activates with no tools after a failed start, or rejects with failOnStartupError', async () => {
    const port = await closedPort()
    const host = await startHost()
    const url = `http://127.0.0.1:${port}/mcp`
    await host.load(http(url, { serverName: 'down', reconnect: { enabled: false } }))
    expect(host.tools.list()).toEqual([])
    // The reason fetch hides in its cause is quoted: a refused port, not only "fetch failed".
    expect(host.logs.join('\n')).toMatch(/connection attempt failed: server\/discover failed: fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+/)
    expect(host.logs.join('\n')).toMatch(/connection failed and reconnect is disabled/)
    await expect(host.load(http(url, { serverName: 'strict', failOnStartupError: true, reconnect: { enabled: false } }))).rejects.toThrow(
      /mcp-client\(strict\): initial connection or tool discovery failed/,
    )
  })

  it('maps isError results to error results and keeps structured content in the value', async () => {
    const server = await serveHttp(() => {
      const s = new McpServer({ name: 'results', version: '1.0.0' })
      s.registerTool('fail', { inputSchema: {} }, async () => ({ isError: true, content: [{ type: 'text', text: 'quota exceeded' }] }))
      s.registerTool('stats', { inputSchema: { n: z.number() } }, async ({ n }) => ({
        content: [{ type: 'text', text: `n=${n}` }],
        structuredContent: { n },
      }))
      return s
    })
    const host = await startHost()
    await host.load(http(server.url))
    expect(await host.tools.execute('mcp__web__fail', {})).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: 'mcp__web__fail failed: quota exceeded' } })
    expect(await host.tools.execute('mcp__web__stats', { n: 7 })).toEqual({
      isError: false,
      value: { content: [{ type: 'text', text: 'n=7' }], structuredContent: { n: 7 } },
      content: [{ type: 'text', text: 'n=7' }],
    })
  })
})
