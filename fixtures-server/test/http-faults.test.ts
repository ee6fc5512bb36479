import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, it } from 'vitest'
import { createFetchFixture, loadBehaviourFile, startHttpFixture, type BehaviourInput } from '../src/index.ts'
import { example, open } from './support/fixtures.ts'

const client = () => new Client({ name: 'http-faults-test', version: '1.0.0' })
const echo = { content: [{ type: 'text', text: '{}' }] }

describe('HTTP faults', () => {
  it('401 unless the expected header is present', async () => {
    const fx = await startHttpFixture({ tools: [{ name: 'echo' }], http: { auth: { header: 'x-api-key', value: 'k1' } } })
    try {
      await expect(client().connect(new StreamableHTTPClientTransport(new URL(fx.url)))).rejects.toMatchObject({ code: 401 })
      const wrong = new StreamableHTTPClientTransport(new URL(fx.url), { requestInit: { headers: { 'x-api-key': 'nope' } } })
      await expect(client().connect(wrong)).rejects.toMatchObject({ code: 401 })
      const ok = client()
      await ok.connect(new StreamableHTTPClientTransport(new URL(fx.url), { requestInit: { headers: { 'x-api-key': 'k1' } } }))
      expect(await ok.callTool({ name: 'echo' })).toEqual(echo)
      await ok.close()
    } finally {
      await fx.close()
    }
  })

  it('expires a session after N requests (404), and a new session works', async () => {
    const fx = await open('http', { tools: [{ name: 'echo' }], http: { sessionRequests: 4 } })
    try {
      // POSTs 1 and 2 were initialize and notifications/initialized.
      expect(await fx.client.callTool({ name: 'echo' })).toEqual(echo)
      expect(await fx.client.callTool({ name: 'echo' })).toEqual(echo)
      await expect(fx.client.callTool({ name: 'echo' })).rejects.toMatchObject({ code: 404, message: expect.stringContaining('Session not found') })
      await expect(fx.client.callTool({ name: 'echo' })).rejects.toMatchObject({ code: 404 })
      const fresh = client()
      await fresh.connect(new StreamableHTTPClientTransport(new URL(fx.http!.url)))
      expect(await fresh.callTool({ name: 'echo' })).toEqual(echo)
      expect(fx.http!.status().sessions).toBe(1)
      await fresh.close()
    } finally {
      await fx.close()
    }
  })

  it('500 on the Nth POST, then normal service', async () => {
    const fx = await open('http', { tools: [{ name: 'echo' }], http: { faults: [{ request: 3, action: 'fail' }] } })
    try {
      await expect(fx.client.callTool({ name: 'echo' })).rejects.toMatchObject({ code: 500 })
      expect(await fx.client.callTool({ name: 'echo' })).toEqual(echo)
    } finally {
      await fx.close()
    }
  })

  it('500 on the Nth POST of a method, counted by method: other POSTs before it do not move it', async () => {
    const fx = await open('http', { tools: [{ name: 'echo' }], http: { faults: [{ method: 'tools/call', occurrence: 2, action: 'fail' }] } })
    try {
      // Other POSTs in between (tools/list) count towards nothing: the 2nd tools/call fails, and only it.
      expect(await fx.client.callTool({ name: 'echo' })).toEqual(echo)
      await fx.client.listTools()
      await fx.client.listTools()
      await expect(fx.client.callTool({ name: 'echo' })).rejects.toMatchObject({ code: 500 })
      expect(await fx.client.callTool({ name: 'echo' })).toEqual(echo)
    } finally {
      await fx.close()
    }
  })

  it('drops the connection for a method or a tool, then recovers', async () => {
    const fx = await open('http', {
      tools: [{ name: 'echo' }, { name: 'fragile' }],
      http: { faults: [{ tool: 'fragile', action: 'drop', times: 1 }, { method: 'tools/list', action: 'drop', times: 2 }] },
    })
    try {
      await expect(fx.client.callTool({ name: 'fragile' })).rejects.toThrow(/fetch failed/)
      expect(await fx.client.callTool({ name: 'fragile' })).toEqual(echo)
      await expect(fx.client.listTools()).rejects.toThrow(/fetch failed/)
      await expect(fx.client.listTools()).rejects.toThrow(/fetch failed/)
      expect((await fx.client.listTools()).tools).toHaveLength(2)
      // Dropped requests never reached the MCP server.
      expect(fx.wire().filter((entry) => 'method' in entry.msg && entry.msg.method === 'tools/list')).toHaveLength(1)
    } finally {
      await fx.close()
    }
  })

  it('never answers a given method; other methods still work', async () => {
    const fx = await open('http', { tools: [{ name: 'echo' }], http: { faults: [{ method: 'tools/list', action: 'never' }] } })
    try {
      await expect(fx.client.listTools({}, { timeout: 300 })).rejects.toMatchObject({ code: -32001 })
      expect(await fx.client.callTool({ name: 'echo' })).toEqual(echo)
    } finally {
      await fx.close()
    }
  })

  it('combines faults as in examples/http-faults.yaml', async () => {
    const fx = await open('http', example('http-faults.yaml'), { headers: { authorization: 'Bearer s3cret' } })
    try {
      expect(await fx.client.callTool({ name: 'echo' })).toEqual(echo) // POST 3
      await expect(fx.client.callTool({ name: 'echo' })).rejects.toMatchObject({ code: 500 }) // POST 4
      await expect(fx.client.callTool({ name: 'drop_me' })).rejects.toThrow(/fetch failed/) // POST 5
      expect(await fx.client.callTool({ name: 'drop_me' })).toEqual(echo) // POST 6, the session's last
      await expect(fx.client.callTool({ name: 'echo' })).rejects.toMatchObject({ code: 404 })
    } finally {
      await fx.close()
    }
  })
})

describe('socket-less fetch fixture', () => {
  const connect = async (behaviour: BehaviourInput) => {
    const fx = createFetchFixture(behaviour, { memoryWire: true })
    const c = client()
    await c.connect(new StreamableHTTPClientTransport(new URL('http://fixture.test/mcp'), { fetch: fx.fetch }))
    return { fx, c }
  }

  it('serves the same engine through an injected fetch, faults included', async () => {
    const { fx, c } = await connect({ ...loadBehaviourFile(example('results.yaml')), http: { faults: [{ tool: 'texts', action: 'drop', times: 1 }] } })
    expect(await c.callTool({ name: 'echo', arguments: { a: 1 } })).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] })
    await expect(c.callTool({ name: 'texts' })).rejects.toThrow()
    expect((await c.callTool({ name: 'texts' })).content).toHaveLength(3)
    expect(fx.wire!.entries[0]!.msg).toMatchObject({ method: 'initialize' })
    await c.close()
    await fx.close()
  })

  it('turns a scripted crash into refused requests', async () => {
    const { fx, c } = await connect({ tools: [{ name: 'a' }], crash: { afterCalls: 1, exitCode: 2 } })
    await c.callTool({ name: 'a' })
    expect(await fx.exited).toBe(2)
    await expect(c.callTool({ name: 'a' })).rejects.toThrow()
    await c.close()
  })
})
