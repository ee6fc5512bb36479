import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { serveHttp, type InProcessServer } from './support/http-server.ts'
import { startHost } from './support/host.ts'


/** `work` reports progress every `every` ms for `total` ms, then answers; `stuck` never answers. */
function progressServer() {
  return serveHttp(() => {
    const s = new McpServer({ name: 'slow', version: '1.0.0' })
    s.registerTool('work', { inputSchema: { total: z.number(), every: z.number() } }, async ({ total, every }, extra) => {
      const token = extra._meta?.progressToken
      for (let done = 0; done < total; done += every) {
        await new Promise((r) => setTimeout(r, every))
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done + every, total } })
      }
      return { content: [{ type: 'text', text: 'done' }] }
    })
    s.registerTool('stuck', { inputSchema: {} }, () => new Promise(() => {}))
    return s
  })
}

const cancellations = (server: InProcessServer) => () => server.received.filter((m) => m.method === 'notifications/cancelled').map((m) => String(m.params?.reason))

describe('call timeouts, progress and cancellation', () => {
  it('lets progress push the call timeout back', async () => {
    const server = await progressServer()
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'slow', url: server.url, toolCallTimeoutMs: 250, maxTotalTimeoutMs: 10_000 })
    // 750 ms of work, three times the call timeout, kept alive by progress every 50 ms.
    expect(await host.tools.execute('mcp__slow__work', { total: 750, every: 50 })).toMatchObject({ isError: false, content: [{ text: 'done' }] })
  })

  it('still ends a call at maxTotalTimeoutMs and tells the server why', async () => {
    const server = await progressServer()
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'slow', url: server.url, toolCallTimeoutMs: 250, maxTotalTimeoutMs: 400 })
    const result = await host.tools.execute('mcp__slow__work', { total: 5_000, every: 50 })
    expect(result).toMatchObject({ isError: true, error: { code: 'TOOL_TIMEOUT', message: expect.stringMatching(/exceeded maxTotalTimeoutMs \(400 ms\) despite progress/) } })
    await expect.poll(cancellations(server)).toEqual(['exceeded maxTotalTimeoutMs (400 ms)'])
  })

  it('sends notifications/cancelled with the caller’s reason when the caller aborts', async () => {
    const server = await progressServer()
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'slow', url: server.url })
    const controller = new AbortController()
    const pending = host.tools.execute('mcp__slow__stuck', {}, { signal: controller.signal })
    await expect.poll(() => server.received.some((m) => m.method === 'tools/call')).toBe(true)
    controller.abort('user pressed stop')
    expect(await pending).toMatchObject({ isError: true, error: { code: 'ABORTED' } })
    await expect.poll(cancellations(server)).toEqual(['user pressed stop'])
  })
})
