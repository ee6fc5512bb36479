import { Context, type Logger } from 'cordis'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseConfig } from '../src/config.ts'
import { ServerConnection, type ConnectionOptions, type ConnectionState } from '../src/connection.ts'
import { attachConsoleLogger, ToolRegistry } from '../src/host/index.ts'
import type { ToolExecution } from '../src/index.ts'
import { ToolSet } from '../src/tool-set.ts'
import { afterTest, tempDir } from './support/cleanup.ts'
import { isAlive } from './support/host.ts'
import { serveHttp } from './support/http-server.ts'
import { ManualClock } from './support/manual-clock.ts'

/**
 * ServerConnection driven directly, with no plugin around it: real servers (a line-based stdio
 * script, an in-process HTTP server), a manual clock for the reconnect schedule, and every state
 * and log line it reports. Each test pins one promise of the supervisor that a host cannot see
 * through the registry alone.
 */

afterEach(() => vi.unstubAllEnvs())

interface LineServer {
  /** Exit on start (after a note on stderr) when this file's count of starts is in [from, to]. */
  crashStarts?: { file: string; from: number; to: number }
  /** Never answer initialize. */
  silent?: boolean
  /** Answer tools/list with a JSON-RPC error, or exit instead of answering it. */
  onList?: 'error' | 'exit'
  /** Write this environment variable's value to stderr, then exit, on start. */
  leakEnv?: string
}

/** A minimal line-based MCP server for `node -e`: tools `ok` (answers "fine") and `die` (exits). */
function lineServer(options: LineServer = {}): string {
  const crash = options.crashStarts
  return `
    ${crash ? `const fs = require('fs'); const starts = (fs.existsSync(${JSON.stringify(crash.file)}) ? Number(fs.readFileSync(${JSON.stringify(crash.file)}, 'utf8')) : 0) + 1; fs.writeFileSync(${JSON.stringify(crash.file)}, String(starts)); if (starts >= ${crash.from} && starts <= ${crash.to}) { process.stderr.write('crashing on start ' + starts + '\\n'); process.exit(1) }` : ''}
    ${options.leakEnv ? `require('fs').writeSync(2, 'using ' + process.env[${JSON.stringify(options.leakEnv)}] + '\\n'); process.exit(2)` : ''}
    process.stderr.write('pid ' + process.pid + '\\n')
    const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
    require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line)
      if (m.method === 'initialize' && ${!options.silent}) send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'line', version: '1.2.3' } } })
      if (m.method === 'tools/list' && ${JSON.stringify(options.onList ?? '')} === 'error') send({ id: m.id, error: { code: -32603, message: 'tool catalogue offline' } })
      else if (m.method === 'tools/list' && ${JSON.stringify(options.onList ?? '')} === 'exit') process.exit(4)
      else if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'die', inputSchema: { type: 'object' } }, { name: 'ok', inputSchema: { type: 'object' } }] } })
      if (m.method === 'tools/call' && m.params.name === 'ok') send({ id: m.id, result: { content: [{ type: 'text', text: 'fine' }] } })
      if (m.method === 'tools/call' && m.params.name === 'die') process.exit(7)
    })`
}

const stdio = (script: string, extra: Record<string, unknown> = {}) => ({
  transport: 'stdio',
  serverName: 'line',
  command: process.execPath,
  args: ['-e', script],
  killGraceMs: 200,
  reconnect: { initialDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 3 },
  ...extra,
})

async function supervise(input: Record<string, unknown>, options: Partial<ConnectionOptions> = {}) {
  const root = new Context()
  const logs: string[] = []
  attachConsoleLogger(root, { level: 'debug', write: (line) => logs.push(line) })
  await root.plugin(ToolRegistry)
  const clock = new ManualClock()
  const states: Array<[ConnectionState, number | undefined]> = []
  const connection = new ServerConnection({
    config: parseConfig(input),
    logger: root.logger('mcp:line') as Logger,
    tools: new ToolSet(root.tools),
    clock,
    onState: (state, pid) => states.push([state, pid]),
    ...options,
  })
  afterTest(connection, (c) => c.dispose())
  const text = () => logs.join('\n')
  return { root, logs, text, clock, states, connection }
}

/** A poll's bound: a child's start can take seconds on a loaded machine, and a poll ends as soon as it holds. */
const SPAWN_WAIT = { timeout: 15_000 }

const exec = () => ({ signal: new AbortController().signal }) as ToolExecution
const starts = () => `${tempDir('connection-starts-')}/starts`

describe('ServerConnection states', () => {
  it("tells every state, with the stdio child's pid while connected and none once disposed", async () => {
    const { root, states, connection } = await supervise(stdio(lineServer()))
    expect(states).toEqual([[{ kind: 'connecting' }, undefined]])
    expect(await connection.ready).toEqual({})
    const [state, pid] = states.at(-1)!
    expect(state).toEqual({ kind: 'connected', server: 'line 1.2.3' })
    expect(pid).toBe(connection.pid)
    expect(isAlive(pid!)).toBe(true)
    expect(root.tools.list().map((t) => t.name)).toEqual(['mcp__line__die', 'mcp__line__ok'])
    await connection.dispose()
    expect(states.at(-1)).toEqual([{ kind: 'disposed' }, undefined])
    expect(connection.pid).toBeUndefined()
    expect(isAlive(pid!)).toBe(false)
    expect(root.tools.list()).toEqual([])
  })

  it('is torn down once, however often dispose is called', async () => {
    const { connection, states } = await supervise(stdio(lineServer()))
    await connection.ready
    const first = connection.dispose()
    const second = connection.dispose()
    expect(second).toBe(first)
    await second
    expect(connection.status).toEqual({ kind: 'disposed' })
    expect(states.filter(([state]) => state.kind === 'disposed')).toHaveLength(1)
  })

  it('says why a call cannot be made: still connecting, then unloaded', async () => {
    const { connection } = await supervise(stdio(lineServer({ silent: true }), { connectTimeoutMs: 30_000 }))
    await expect(connection.invoke('ok', {}, exec())).rejects.toThrow('MCP server "line" is still connecting')
    await connection.dispose()
    await expect(connection.invoke('ok', {}, exec())).rejects.toThrow('MCP server "line" has been unloaded')
  })

  it('makes a plain call when asked with three arguments', async () => {
    const { connection } = await supervise(stdio(lineServer()))
    await connection.ready
    await expect(connection.invoke('ok', {}, exec())).resolves.toMatchObject({ content: [{ type: 'text', text: 'fine' }] })
  })
})

describe('ServerConnection failures', () => {
  it('stops at the first failure under failOnStartupError, at warn level, with no retry', async () => {
    const { connection, clock, logs } = await supervise(stdio(lineServer({ crashStarts: { file: starts(), from: 1, to: 9 } })), { noRetryOnFirstFailure: true })
    expect((await connection.ready).error).toBeDefined()
    expect(connection.status).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/^the first connection failed and failOnStartupError is set: .*crashing on start 1/) })
    expect(clock.pending).toBe(0)
    expect(logs.filter((line) => line.includes('failOnStartupError is set'))).toEqual([expect.stringMatching(/^\[warn\] mcp:line: the first connection failed/)])
    expect(logs.filter((line) => line.startsWith('[error]'))).toEqual([])
  })

  it('retries a later failure under failOnStartupError once the first connection succeeded', async () => {
    const { connection, clock } = await supervise(stdio(lineServer({ crashStarts: { file: starts(), from: 2, to: 9 } })), { noRetryOnFirstFailure: true })
    expect(await connection.ready).toEqual({})
    await connection.invoke('die', {}, exec()).catch(() => {})
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
    clock.advance(100)
    await expect.poll(() => clock.pending, SPAWN_WAIT).toBe(1)
    expect(connection.status).toMatchObject({ kind: 'reconnecting', attempt: 2 })
  })

  it('says "reconnected" only after a reconnect, at info level', async () => {
    const { connection, clock, logs } = await supervise(stdio(lineServer()))
    await connection.ready
    expect(logs.join('\n')).not.toMatch(/reconnected/)
    await connection.invoke('die', {}, exec()).catch(() => {})
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
    expect(logs.join('\n')).toMatch(/\[warn\] mcp:line: connection lost; reconnecting in 100ms \(attempt 1\/3\)/)
    clock.advance(100)
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('connected')
    expect(logs.filter((line) => line.includes('reconnected'))).toEqual(['[info] mcp:line: reconnected and re-synced tools (attempt 1/3)'])
  })

  it('counts an attempt that fails after a long-lived connection as the outage goes on, not as a new one', async () => {
    const { connection, clock } = await supervise(stdio(lineServer({ crashStarts: { file: starts(), from: 2, to: 9 } })))
    await connection.ready
    clock.advance(1_000) // up for maxDelayMs: this outage starts with a full budget
    await connection.invoke('die', {}, exec()).catch(() => {})
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
    clock.advance(100)
    await expect.poll(() => clock.pending, SPAWN_WAIT).toBe(1)
    expect(connection.status).toMatchObject({ kind: 'reconnecting', attempt: 2 })
    expect(clock.delays).toEqual([100, 200])
  })

  it('retries once, not twice, when the server dies during the first tools/list', async () => {
    const { connection, clock, text } = await supervise(stdio(lineServer({ onList: 'exit' })))
    await connection.ready
    await expect.poll(() => clock.pending, SPAWN_WAIT).toBe(1)
    expect(connection.status).toMatchObject({ kind: 'reconnecting', attempt: 1 })
    expect(clock.delays).toEqual([100])
    expect(text()).toMatch(/connection lost/)
  })

  it('closes the session and retries when tools/list answers an error', async () => {
    const { connection, clock, text, states } = await supervise(stdio(lineServer({ onList: 'error' })))
    const { error } = await connection.ready
    expect(String(error)).toMatch(/tool catalogue offline/)
    const pid = states.find(([, p]) => p !== undefined)?.[1]
    expect(pid === undefined || !isAlive(pid)).toBe(true)
    expect(connection.pid).toBeUndefined()
    expect(clock.pending).toBe(1)
    expect(connection.status).toMatchObject({ kind: 'reconnecting', attempt: 1 })
    expect(text()).toMatch(/connection attempt failed: .*tool catalogue offline/)
    expect(text()).toMatch(/connection failed; retrying in 100ms \(attempt 1\/3\)/)
  })

  it('leaves no retry behind when disposed during an attempt', async () => {
    const { connection, clock, text } = await supervise(stdio(lineServer({ silent: true }), { connectTimeoutMs: 60_000 }))
    await expect.poll(() => text(), SPAWN_WAIT).toMatch(/stderr: pid \d+/)
    await connection.dispose()
    expect((await connection.ready).error).toBeDefined()
    expect(connection.status).toEqual({ kind: 'disposed' })
    expect(clock.pending).toBe(0)
    expect(text()).not.toMatch(/attempt failed|retrying/)
  })
})

describe('ServerConnection logs', () => {
  it("logs each of the server's stderr lines at debug level", async () => {
    const { connection, logs } = await supervise(stdio(lineServer()))
    await connection.ready
    expect(logs).toContain(`[debug] mcp:line: stderr: pid ${connection.pid}`)
  })

  it('reports how many tools it registered, at debug level', async () => {
    const { connection, logs } = await supervise(stdio(lineServer()))
    await connection.ready
    expect(logs).toContain('[debug] mcp:line: registered 2 tools')
  })

  it('warns once about a secret-looking inherited variable, not again on a reconnect', async () => {
    vi.stubEnv('LINE_API_TOKEN', 'abc')
    const { connection, clock, logs } = await supervise(stdio(lineServer(), { inheritEnv: ['LINE_API_TOKEN'] }))
    await connection.ready
    await connection.invoke('die', {}, exec()).catch(() => {})
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
    clock.advance(100)
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('connected')
    expect(logs.filter((line) => line.includes('inheritEnv'))).toEqual([
      '[warn] mcp:line: inheritEnv passes LINE_API_TOKEN to the server, and the name or value looks like a credential (set it in env if that is intended, or narrow inheritEnv)',
    ])
  })

  it("keeps a configured secret out of everything it logs, the server's own words included", async () => {
    const secret = 'pa55-w0rd-value-xyz'
    const { connection, text } = await supervise(stdio(lineServer({ leakEnv: 'SERVICE_PASSWORD' }), { env: { SERVICE_PASSWORD: secret } }))
    const { error } = await connection.ready
    expect(error).toBeDefined()
    await expect.poll(() => text(), SPAWN_WAIT).toMatch(/connection attempt failed/)
    expect(text()).toMatch(/stderr: using <redacted>/)
    expect(text()).not.toContain(secret)
  })
})

describe('ServerConnection re-sync', () => {
  it('bounds a re-sync by connectTimeoutMs and keeps the previous tools when it fails', async () => {
    let lists = 0
    const servers: Server[] = []
    const factory = () => {
      const server = new Server({ name: 'hangs', version: '1' }, { capabilities: { tools: { listChanged: true } } })
      server.setRequestHandler(ListToolsRequestSchema, () => (++lists === 1 ? { tools: [{ name: 'a', inputSchema: { type: 'object' } }] } : new Promise(() => {})))
      server.setRequestHandler(CallToolRequestSchema, () => ({ content: [] }))
      servers.push(server)
      return server
    }
    const http = await serveHttp(factory)
    const { root, connection, clock, text } = await supervise({ transport: 'streamable-http', serverName: 'line', url: http.url, connectTimeoutMs: 3_000, listChanged: { debounceMs: 10, maxWaitMs: 100 } })
    expect(await connection.ready).toEqual({})
    await Promise.all(servers.map((s) => s.sendToolListChanged()))
    await expect.poll(() => clock.pending, SPAWN_WAIT).toBe(1)
    clock.advance(10)
    await expect.poll(() => text(), SPAWN_WAIT).toMatch(/\[error\] mcp:line: tool re-sync failed, keeping the previous tools: /)
    expect(lists).toBe(2)
    expect(root.tools.list().map((t) => t.name)).toEqual(['mcp__line__a'])
    expect(connection.status.kind).toBe('connected')
  })
})
