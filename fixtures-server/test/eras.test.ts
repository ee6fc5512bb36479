import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client'
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio'
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { FileFormatError, fixtureCommand, startHttpFixture, type BehaviourInput, type HttpFixture } from '../src/index.ts'
import { checkBehaviour } from '../src/parse.ts'
import { liveFixtureChildren, open } from './support/fixtures.ts'

afterAll(() => expect(liveFixtureChildren()).toEqual([]))

/**
 * The fixture at each era (MCP 2026-07-28 basic/versioning), judged through the real wire: the SDK's
 * v2 client (which speaks 2026-07-28), the v1 client (legacy), and raw JSON-RPC where the point is
 * the exact answer to a request no SDK client would send.
 */

const MODERN = '2026-07-28'
const V = 'io.modelcontextprotocol/protocolVersion'
const CAPS = 'io.modelcontextprotocol/clientCapabilities'
const meta = (version = MODERN) => ({ [V]: version, [CAPS]: {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } })

const behaviour = (era: 'legacy' | 'modern' | 'dual', extra: Partial<BehaviourInput> = {}): BehaviourInput => ({
  era,
  name: 'era-fixture',
  version: '1.2.3',
  tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }, { name: 'slow', delayMs: 60_000 }],
  ...extra,
})

/** A stdio fixture spoken to line by line: every answer by id. */
function rawStdio(source: BehaviourInput) {
  const { command, args } = fixtureCommand(source)
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] })
  const waiting = new Map<unknown, (message: Record<string, unknown>) => void>()
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>
    waiting.get(message.id)?.(message)
  })
  let id = 0
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    exited,
    request(method: string, params: Record<string, unknown> = {}) {
      const mine = ++id
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params })}\n`)
      return new Promise<Record<string, unknown>>((resolve) => waiting.set(mine, resolve))
    },
    close: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.stdin.end()))),
  }
}

async function post(fixture: HttpFixture, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(fixture.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
  })
  const text = await response.text()
  // An SSE answer carries the JSON-RPC message in its data line.
  const json = response.headers.get('content-type')?.includes('text/event-stream') ? /^data: (.*)$/m.exec(text)?.[1] : text
  return { status: response.status, body: json ? (JSON.parse(json) as Record<string, unknown>) : undefined, session: response.headers.get('mcp-session-id') }
}

const modernHeaders = (method: string, name?: string) => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name && { 'mcp-name': name }) })

describe('era in the fixture format', () => {
  it('defaults to legacy and names the field and its choices when wrong', () => {
    expect(checkBehaviour({}, () => 'f.yaml:1').era).toBe('legacy')
    expect(() => checkBehaviour({ era: 'future' }, () => 'f.yaml:3')).toThrow(FileFormatError)
    expect(() => checkBehaviour({ era: 'future' }, () => 'f.yaml:3')).toThrow(/^f\.yaml:3: era: expected one of "legacy"\|"modern"\|"dual"; use one of them$/)
  })
})

describe.each(['stdio', 'http'] as const)('a v2 SDK client (%s)', (kind) => {
  async function connect(era: 'modern' | 'dual') {
    const client = new V2Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    let http: HttpFixture | undefined
    if (kind === 'http') {
      http = await startHttpFixture(behaviour(era), { memoryWire: true })
      await client.connect(new V2Http(new URL(http.url)))
    } else {
      const { command, args } = fixtureCommand(behaviour(era))
      await client.connect(new V2Stdio({ command, args }))
    }
    return { client, http, close: async () => (await client.close(), await http?.close()) }
  }

  it.each(['modern', 'dual'] as const)('speaks 2026-07-28 with a %s fixture: lists and calls tools, every result complete', async (era) => {
    const { client, http, close } = await connect(era)
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN)
      expect(client.getServerVersion()).toMatchObject({ name: 'era-fixture', version: '1.2.3' })
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual(['echo', 'slow'])
      const result = await client.callTool({ name: 'echo', arguments: { a: 1 } })
      expect(result.content).toEqual([{ type: 'text', text: '{"a":1}' }])
      if (http) {
        // What went over the wire: no initialize, discover first, resultType on every result.
        const wire = http.wire!.entries
        const methods = wire.filter((e) => e.dir === 'recv' && 'method' in e.msg).map((e) => (e.msg as { method: string }).method)
        expect(methods).not.toContain('initialize')
        expect(methods[0]).toBe('server/discover')
        const results = wire.filter((e) => e.dir === 'send' && 'result' in e.msg).map((e) => (e.msg as { result: { resultType?: string } }).result)
        expect(results.length).toBeGreaterThanOrEqual(3)
        for (const r of results) expect(r.resultType).toBe('complete')
        expect(http.status().sessions).toBe(0)
        // The HTTP log keeps what the kit judges a modern client's POSTs by.
        const posts = http.wire!.http.filter((h) => h.method === 'POST')
        expect(posts.length).toBeGreaterThanOrEqual(3)
        for (const h of posts) expect(h).toMatchObject({ metaVersion: MODERN, protocolVersion: MODERN, mcpMethod: h.rpc })
        expect(posts.find((h) => h.rpc === 'tools/call')).toMatchObject({ mcpName: 'echo' })
      }
    } finally {
      await close()
    }
  })

  it('falls back to initialize with a legacy fixture', async () => {
    const client = new V2Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    const http = kind === 'http' ? await startHttpFixture(behaviour('legacy'), { memoryWire: true }) : undefined
    try {
      await client.connect(http ? new V2Http(new URL(http.url)) : new V2Stdio(fixtureCommand(behaviour('legacy'))))
      expect(client.getNegotiatedProtocolVersion()).not.toBe(MODERN)
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'slow'])
    } finally {
      await client.close()
      await http?.close()
    }
  })
})

describe('a legacy client (SDK v1)', () => {
  it.each(['stdio', 'http'] as const)('is served by a dual-era fixture (%s)', async (kind) => {
    const fx = await open(kind, behaviour('dual'))
    try {
      expect(fx.client.getServerVersion()).toMatchObject({ name: 'era-fixture' })
      expect((await fx.client.listTools()).tools).toHaveLength(2)
    } finally {
      await fx.close()
    }
  })

  it.each(['stdio', 'http'] as const)('is refused by a modern-only fixture, which names its versions (%s)', async (kind) => {
    const fx = await open(kind, behaviour('modern'), { connect: false })
    try {
      const transport = kind === 'http' ? new V1Http(new URL(fx.http!.url)) : new V1Stdio(fixtureCommand(behaviour('modern')))
      await expect(fx.client.connect(transport)).rejects.toThrow(/2026-07-28/)
    } finally {
      await fx.close().catch(() => {})
    }
  })
})

describe('stdio, raw', () => {
  it('modern: discover, -32022 with data.supported, initialize refused, a request without _meta refused, ping gone', async () => {
    const fx = rawStdio(behaviour('modern'))
    try {
      const discover = await fx.request('server/discover', { _meta: meta() })
      expect(discover.result).toMatchObject({ resultType: 'complete', supportedVersions: [MODERN], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'era-fixture' } } })
      expect((await fx.request('tools/list', { _meta: meta('1900-01-01') })).error).toEqual({
        code: -32022,
        message: expect.stringContaining('2026-07-28') as string,
        data: { supported: [MODERN], requested: '1900-01-01' },
      })
      expect((await fx.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } })).error).toMatchObject({ code: -32022, data: { supported: [MODERN], requested: '2025-11-25' } })
      expect((await fx.request('tools/list', {})).error).toMatchObject({ code: -32602 })
      expect((await fx.request('tools/list', { _meta: { [V]: MODERN } })).error).toMatchObject({ code: -32602 })
      expect((await fx.request('ping', { _meta: meta() })).error).toMatchObject({ code: -32601 })
      const list = await fx.request('tools/list', { _meta: meta() })
      expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' })
    } finally {
      await fx.close()
    }
  })

  it('legacy: server/discover is an unknown method, and a legacy result has no resultType', async () => {
    const fx = rawStdio(behaviour('legacy'))
    try {
      expect((await fx.request('server/discover', { _meta: meta() })).error).toMatchObject({ code: -32601 })
      await fx.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } })
      expect((await fx.request('tools/list')).result).not.toHaveProperty('resultType')
    } finally {
      await fx.close()
    }
  })

  it('dual: serves a modern request and a legacy handshake in the same process', async () => {
    const fx = rawStdio(behaviour('dual'))
    try {
      expect((await fx.request('server/discover', { _meta: meta() })).result).toMatchObject({ supportedVersions: [MODERN, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] })
      expect((await fx.request('tools/call', { name: 'echo', arguments: {}, _meta: meta() })).result).toMatchObject({ resultType: 'complete' })
      expect((await fx.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } })).result).toMatchObject({ protocolVersion: '2025-11-25' })
      expect((await fx.request('tools/list')).result).not.toHaveProperty('resultType')
    } finally {
      await fx.close()
    }
  })

  it('modern: a scripted crash mid-call still ends the process', async () => {
    const fx = rawStdio(behaviour('modern', { tools: [{ name: 'die', exit: 3 }] }))
    void fx.request('tools/call', { name: 'die', arguments: {}, _meta: meta() })
    // stdin stays open: only the script can end the process, with its own exit code.
    expect(await fx.exited).toBe(3)
  })
})

describe('HTTP, raw', () => {
  const started: HttpFixture[] = []
  afterAll(async () => Promise.all(started.map((f) => f.close())))
  const start = async (source: BehaviourInput) => {
    const fixture = await startHttpFixture(source, { memoryWire: true })
    started.push(fixture)
    return fixture
  }

  it('modern: 400 with -32022 and data.supported, 400 -32020 on a missing header, 404 -32601 for a removed method, initialize refused with 400', async () => {
    const fx = await start(behaviour('modern'))
    const unsupported = await post(fx, { method: 'tools/list', params: { _meta: meta('1900-01-01') } }, { ...modernHeaders('tools/list'), 'mcp-protocol-version': '1900-01-01' })
    expect(unsupported).toMatchObject({ status: 400, body: { id: 1, error: { code: -32022, data: { supported: [MODERN], requested: '1900-01-01' } } } })
    expect(await post(fx, { method: 'tools/list', params: { _meta: meta() } }, { 'mcp-protocol-version': MODERN })).toMatchObject({ status: 400, body: { error: { code: -32020 } } })
    expect(await post(fx, { method: 'tools/call', params: { name: 'echo', _meta: meta() } }, modernHeaders('tools/call', 'other'))).toMatchObject({ status: 400, body: { error: { code: -32020 } } })
    expect(await post(fx, { method: 'ping', params: { _meta: meta() } }, modernHeaders('ping'))).toMatchObject({ status: 404, body: { error: { code: -32601 } } })
    const init = await post(fx, { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, { 'mcp-protocol-version': '2025-11-25' })
    expect(init).toMatchObject({ status: 400, body: { error: { code: -32022, data: { supported: [MODERN] } } }, session: null })
    const get = await fetch(fx.url, { headers: { accept: 'text/event-stream' } })
    await get.body?.cancel()
    expect(get.status).toBe(405)
  })

  it('modern: serves a call statelessly, with resultType, ignoring a session id, minting none', async () => {
    const fx = await start(behaviour('modern'))
    const called = await post(fx, { method: 'tools/call', params: { name: 'echo', arguments: { x: 1 }, _meta: meta() } }, { ...modernHeaders('tools/call', 'echo'), 'mcp-session-id': 'stale' })
    expect(called).toMatchObject({ status: 200, session: null, body: { result: { resultType: 'complete', content: [{ type: 'text', text: '{"x":1}' }] } } })
  })

  it('legacy: a modern request gets no modern answer (the 400 a dual-era client falls back on)', async () => {
    const fx = await start(behaviour('legacy'))
    const probe = await post(fx, { method: 'server/discover', params: { _meta: meta() } }, modernHeaders('server/discover'))
    expect(probe.status).toBe(400)
    expect(probe.body?.error).not.toMatchObject({ code: -32022 })
  })

  it('modern: scripted HTTP faults still fire', async () => {
    const fx = await start(behaviour('modern', { http: { faults: [{ tool: 'echo', action: 'fail', status: 503 }] } }))
    expect((await post(fx, { method: 'tools/call', params: { name: 'echo', _meta: meta() } }, modernHeaders('tools/call', 'echo'))).status).toBe(503)
  })

  it('modern: closing the response stream cancels the call, as the binding says', async () => {
    const fx = await start(behaviour('modern'))
    const abort = new AbortController()
    const response = await fetch(fx.url, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...modernHeaders('tools/call', 'slow') },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', _meta: meta() } }),
    })
    expect(response.status).toBe(200)
    abort.abort()
    await expect.poll(() => fx.status().cancellations, { timeout: 10_000 }).toEqual([expect.objectContaining({ requestId: 7, tool: 'slow', answered: false })])
  })
})
