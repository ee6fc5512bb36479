import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { startHttpFixture } from '../src/index.ts'

const client = () => new Client({ name: 'legacy-sse-test', version: '1.0.0' })

describe('the legacy HTTP+SSE edge (http.legacySse)', () => {
  it('serves the same behaviour over GET + endpoint event + POSTs, with the same wire log', async () => {
    const fx = await startHttpFixture({ tools: [{ name: 'echo' }], http: { legacySse: true } }, { memoryWire: true })
    try {
      const c = client()
      await c.connect(new SSEClientTransport(new URL(fx.url)))
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['echo'])
      expect(await c.callTool({ name: 'echo', arguments: { a: 1 } })).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] })
      await c.close()
      expect(fx.wire!.entries.filter((e) => e.dir === 'recv').map((e) => 'method' in e.msg && e.msg.method)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call'])
      expect(fx.wire!.http[0]).toMatchObject({ method: 'GET', path: '/mcp', status: 200 })
      expect(fx.wire!.http.slice(1).every((entry) => entry.method === 'POST' && entry.path === '/mcp/messages' && entry.status === 202)).toBe(true)
    } finally {
      await fx.close()
    }
  })

  it('refuses a Streamable HTTP initialize POST with 405, as the backwards-compatibility probe expects', async () => {
    const fx = await startHttpFixture({ tools: [{ name: 'echo' }], http: { legacySse: true } }, { memoryWire: true })
    try {
      await expect(client().connect(new StreamableHTTPClientTransport(new URL(fx.url)))).rejects.toMatchObject({ code: 405 })
      expect(fx.wire!.http).toEqual([{ method: 'POST', path: '/mcp', rpc: 'initialize', status: 405, accept: 'application/json, text/event-stream' }])
      const unknown = await fetch(`${fx.url}/messages?sessionId=nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(unknown.status).toBe(404)
    } finally {
      await fx.close()
    }
  })

  it('delivers server-initiated notifications on the stream (list_changed)', async () => {
    const fx = await startHttpFixture({ tools: [{ name: 'echo' }], listChanged: { steps: [{ at: 1, add: [{ name: 'added' }] }] }, http: { legacySse: true } }, { memoryWire: true })
    try {
      const c = client()
      const notified = new Promise<void>((resolve) => c.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()))
      await c.connect(new SSEClientTransport(new URL(fx.url)))
      await notified
      expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'added'])
      await c.close()
    } finally {
      await fx.close()
    }
  })
})
