import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { startHost, stateOf, type TestHost } from './support/host.ts'
import { webHandler } from './support/web-handler.ts'

const URL = 'http://mcp.fixture.test/mcp'
type Fault = (request: Request, body: { method?: string } | undefined) => Response | Promise<Response> | undefined

const seen: Array<{ method?: string; params?: Record<string, unknown> }> = []
let fault: Fault | undefined
const endpoint = webHandler(() => {
  const server = new McpServer({ name: 'faulty', version: '1.0.0' })
  server.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }))
  return server
})
const msw = setupServer(
  http.all(URL, async ({ request }) => {
    const parsed: unknown = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined
    const body = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as (typeof seen)[number]) : undefined
    if (body) seen.push(body)
    return (await fault?.(request, body)) ?? endpoint.handle(request)
  }),
)

// msw is enabled only in this file: it would hang real-socket HTTP tests elsewhere.
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }))
afterAll(() => msw.close())

let host: TestHost | undefined
afterEach(async () => {
  await host?.dispose()
  host = undefined
  fault = undefined
  seen.length = 0
})

const SECRET = 'Bearer s3cr3t-canary-value'
const config = (extra: Record<string, unknown> = {}) => ({
  transport: 'streamable-http',
  serverName: 'remote',
  url: URL,
  headers: { authorization: SECRET },
  reconnect: { initialDelayMs: 10, maxDelayMs: 100, maxAttempts: 3 },
  ...extra,
})
const calls = (method: string) => seen.filter((m) => m.method === method).length

describe('HTTP faults end in defined outcomes', () => {
  it('401: stops without retrying and never logs the header value', async () => {
    fault = (request) => (request.headers.get('authorization') === 'Bearer right' ? undefined : new Response('denied', { status: 401 }))
    host = await startHost()
    const fiber = await host.load(config())
    expect(host.tools.list()).toEqual([])
    expect(stateOf(fiber)).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/refused the credentials .*HTTP 401/) })
    // The first request, the era probe, is refused, and nothing is sent after it.
    expect([calls('server/discover'), calls('initialize')]).toEqual([1, 0])
    expect(host.logs.join('\n')).not.toContain('s3cr3t')
  })

  it('404 on an expired session: the call fails without replay, the bridge re-initializes, the next call works', async () => {
    host = await startHost()
    await host.load(config())
    expect(await host.tools.execute('mcp__remote__echo', { message: 'one' })).toMatchObject({ isError: false })
    for (const id of [...endpoint.sessions.keys()]) endpoint.expire(id)
    const failed = await host.tools.execute('mcp__remote__echo', { message: 'two' })
    expect(failed).toMatchObject({ isError: true, error: { code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/not replayed/) } })
    await expect.poll(() => host!.logs.join('\n')).toMatch(/reconnected and re-synced tools/)
    expect(await host.tools.execute('mcp__remote__echo', { message: 'three' })).toMatchObject({ content: [{ text: 'Echo: three' }] })
    expect(seen.filter((m) => m.method === 'tools/call').map((m) => (m.params?.arguments as { message: string }).message)).toEqual(['one', 'two', 'three'])
    expect(calls('initialize')).toBe(2)
    expect(host.logs.join('\n')).not.toContain('s3cr3t')
  })

  it('500 on a call: that call fails with the status, the session stays', async () => {
    host = await startHost()
    await host.load(config())
    fault = (_request, body) => (body?.method === 'tools/call' ? new Response('boom', { status: 500 }) : undefined)
    const failed = await host.tools.execute('mcp__remote__echo', { message: 'x' })
    expect(failed).toMatchObject({ isError: true, error: { message: expect.stringMatching(/HTTP 500.*boom/) } })
    fault = undefined
    expect(await host.tools.execute('mcp__remote__echo', { message: 'y' })).toMatchObject({ content: [{ text: 'Echo: y' }] })
    expect(calls('initialize')).toBe(1)
  })

  it('a dropped connection on a call: that call fails, the bridge reconnects', async () => {
    host = await startHost()
    await host.load(config())
    fault = (_request, body) => (body?.method === 'tools/call' ? HttpResponse.error() : undefined)
    expect(await host.tools.execute('mcp__remote__echo', { message: 'x' })).toMatchObject({ isError: true, error: { code: 'SERVER_UNAVAILABLE' } })
    fault = undefined
    await expect.poll(() => host!.logs.join('\n')).toMatch(/reconnected and re-synced tools/)
    expect(await host.tools.execute('mcp__remote__echo', { message: 'y' })).toMatchObject({ content: [{ text: 'Echo: y' }] })
  })

  it('a response that never comes: the call times out and the server is told why', async () => {
    host = await startHost()
    await host.load(config({ toolCallTimeoutMs: 200 }))
    fault = (_request, body) => (body?.method === 'tools/call' ? new Promise<Response>(() => {}) : undefined)
    const result = await host.tools.execute('mcp__remote__echo', { message: 'x' })
    expect(result).toMatchObject({ isError: true, error: { code: 'TOOL_TIMEOUT', message: expect.stringMatching(/did not answer within 200 ms/) } })
    await expect.poll(() => seen.find((m) => m.method === 'notifications/cancelled')).toMatchObject({
      params: { requestId: expect.anything(), reason: expect.stringMatching(/timed out/i) },
    })
  })
})
