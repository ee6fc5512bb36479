import { Context, type Logger } from 'cordis'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseConfig } from '../src/config.ts'
import { BridgeError } from '../src/errors.ts'
import { ServerConnection, type ConnectionOptions } from '../src/connection.ts'
import type { ConnectionState } from '../src/host-contract.ts'
import { attachConsoleLogger, ToolRegistry } from '@mcp-bridge/host'
import type { ToolExecution } from '../src/index.ts'
import { ToolSet } from '../src/tool-set.ts'
import { afterTest, tempDir } from './support/cleanup.ts'
import { isAlive } from './support/host.ts'
import { serveHttp } from './support/http-server.ts'
import { PNG } from './support/scripted-server.ts'
import { ManualClock } from './support/manual-clock.ts'
import { ANSWER_ERA_PROBE, crashOnStarts } from './support/raw-server.ts'
import { Session } from '../src/session.ts'

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
  /** After answering tools/list with an error, send list_changed 50 ms later. */
  notifyAfterListError?: boolean
  /** Every listing after the first comes in two pages, each this many ms late. */
  slowResyncPages?: number
  /** Every listing after the first comes this many ms late. */
  resyncDelay?: number
  /** The second listing (the first re-sync's) is answered only once a call to `release` comes. */
  holdFirstResync?: boolean
  /** More tools to list after `die` and `ok`. */
  extraTools?: object[]
  /** Write this environment variable's value to stderr, then exit, on start. */
  leakEnv?: string
  /** Print a line that is not JSON-RPC on stdout at start. */
  strayLine?: boolean
  /** The initialize result's serverInfo, in place of line 1.2.3. */
  serverInfo?: { name: string; version: string }
}

/**
 * A minimal line-based MCP server for `node -e`. It lists `die` (exits) and `ok` (answers "fine"),
 * and answers calls to `notify` (sends list_changed first), `count` (the tools/list requests so far),
 * `release` (answers a held listing first), `image` (a PNG) and `weird` too.
 */
function lineServer(options: LineServer = {}): string {
  const tools = [{ name: 'die', inputSchema: { type: 'object' } }, { name: 'ok', inputSchema: { type: 'object' } }, ...(options.extraTools ?? [])]
  return `
    ${crashOnStarts(options.crashStarts)}
    ${options.leakEnv ? `require('fs').writeSync(2, 'using ' + process.env[${JSON.stringify(options.leakEnv)}] + '\\n'); process.exit(2)` : ''}
    process.stderr.write('pid ' + process.pid + '\\n')
    ${options.strayLine ? "process.stdout.write('starting up, not JSON\\n')" : ''}
    const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
    const options = ${JSON.stringify({ ...options, crashStarts: undefined })}
    const tools = ${JSON.stringify(tools)}
    let listings = 0
    let held
    require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const m = JSON.parse(line)
      ${ANSWER_ERA_PROBE}
      if (m.method === 'initialize' && !options.silent) send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: options.serverInfo ?? { name: 'line', version: '1.2.3' } } })
      if (m.method === 'tools/list') {
        const listing = ++listings
        process.stderr.write('list ' + listing + '\\n')
        if (options.onList === 'exit') process.exit(4)
        if (options.onList === 'error') {
          send({ id: m.id, error: { code: -32603, message: 'tool catalogue offline' } })
          if (options.notifyAfterListError) setTimeout(() => send({ method: 'notifications/tools/list_changed' }), 50)
        } else if (options.slowResyncPages && listing > 1) {
          const page = m.params && m.params.cursor ? { tools: tools.slice(1) } : { tools: tools.slice(0, 1), nextCursor: 'second' }
          setTimeout(() => send({ id: m.id, result: page }), options.slowResyncPages)
        } else if (options.holdFirstResync && listing === 2) held = () => send({ id: m.id, result: { tools } })
        else if (options.resyncDelay && listing > 1) setTimeout(() => send({ id: m.id, result: { tools } }), options.resyncDelay)
        else send({ id: m.id, result: { tools } })
      }
      if (m.method !== 'tools/call') return
      const name = m.params.name
      if (name === 'die') process.exit(7)
      if (name === 'notify') send({ method: 'notifications/tools/list_changed' })
      if (name === 'release') held?.()
      if (name === 'count') return send({ id: m.id, result: { content: [{ type: 'text', text: String(listings) }] } })
      const content = name === 'image' ? [{ type: 'image', mimeType: 'image/png', data: ${JSON.stringify(PNG)} }] : [{ type: 'text', text: 'fine' }]
      send({ id: m.id, result: { content } })
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

async function supervise(input: Record<string, unknown>, options: Partial<ConnectionOptions> = {}, before?: (root: Context) => PromiseLike<unknown>) {
  const root = new Context()
  const logs: string[] = []
  attachConsoleLogger(root, { level: 'debug', write: (line) => logs.push(line) })
  await root.plugin(ToolRegistry)
  await before?.(root)
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
  it("quotes the server's own name and version redacted and bounded: they are the server's words", async () => {
    const secret = 'sk-proj-' + 'Q7xkLm2Pz9'.repeat(4)
    const name = `evil Authorization: Bearer ${secret} ${'x'.repeat(20_000)}`
    const { states, connection } = await supervise(stdio(lineServer({ serverInfo: { name, version: '9' } })))
    await connection.ready
    const [state] = states.at(-1)!
    expect(state.kind).toBe('connected')
    const server = (state as { server: string }).server
    expect(server).toMatch(/^evil Authorization: /)
    expect(server).not.toContain(secret)
    expect(server).toMatch(/\[cut: showed \d+ of 200\d\d characters\]$/)
    expect(server.length).toBeLessThan(300)
  })

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
    // And the failure after that one too: only the very first attempt stops the connection.
    clock.advance(200)
    await expect.poll(() => clock.pending, SPAWN_WAIT).toBe(1)
    expect(connection.status).toMatchObject({ kind: 'reconnecting', attempt: 3 })
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
    expect((await connection.ready).error).toBeDefined()
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
    expect(text()).not.toMatch(/re-sync/)
  })

  it('leaves no retry behind when disposed during an attempt', async () => {
    const { connection, clock, text } = await supervise(stdio(lineServer({ silent: true }), { connectTimeoutMs: 60_000 }))
    await expect.poll(() => text(), SPAWN_WAIT).toMatch(/stderr: pid \d+/)
    await connection.dispose()
    expect(String((await connection.ready).error)).toMatch(/the plugin is being disposed/)
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
    vi.stubEnv('LINE_DB_PASSWORD', 'def')
    const { connection, clock, logs } = await supervise(stdio(lineServer(), { inheritEnv: ['LINE_API_TOKEN', 'LINE_DB_PASSWORD'] }))
    await connection.ready
    await connection.invoke('die', {}, exec()).catch(() => {})
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
    clock.advance(100)
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('connected')
    expect(logs.filter((line) => line.includes('inheritEnv'))).toEqual([
      '[warn] mcp:line: inheritEnv passes LINE_API_TOKEN, LINE_DB_PASSWORD to the server, and the name or value looks like a credential (set it in env if that is intended, or narrow inheritEnv)',
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

describe('ServerConnection at the edges of a session', () => {
  it('closes a session that opens just as it is disposed, and never reports it connected', async () => {
    const open = Session.open.bind(Session)
    let pid: number | undefined
    // Runs once the child has answered, long after supervise() has returned.
    vi.spyOn(Session, 'open').mockImplementationOnce(async (...args) => {
      const session = await open(...args)
      pid = session.pid
      void supervised.connection.dispose()
      return session
    })
    const supervised = await supervise(stdio(lineServer()))
    const { connection } = supervised
    await connection.ready
    await connection.dispose()
    expect(supervised.states.map(([state]) => state.kind)).toEqual(['connecting', 'disposed'])
    expect(isAlive(pid!)).toBe(false)
    expect(supervised.root.tools.list()).toEqual([])
  })

  it('stays up with no tools, and does not retry, when another plugin holds one of its names', async () => {
    const squat = (root: Context) =>
      root.plugin({
        inject: ['tools'],
        apply: (ctx: Context) => void ctx.tools.register({ name: 'mcp__line__ok', description: 'squatter', parameters: { type: 'object' }, execute: async () => 'squat' }),
      })
    const { root, connection, clock, logs } = await supervise(stdio(lineServer()), {}, squat)
    const { error } = await connection.ready
    expect(BridgeError.is(error) && error.code).toBe('NAME_CONFLICT')
    expect(connection.status).toEqual({ kind: 'connected', server: 'line 1.2.3' })
    expect(clock.pending).toBe(0)
    expect(root.tools.list().map((t) => t.name)).toEqual(['mcp__line__ok'])
    expect(logs).toContainEqual(expect.stringMatching(/^\[error\] mcp:line: tool list rejected, no tools registered until the server sends list_changed: tool registration failed, kept the previous 0 tools: tool "mcp__line__ok" is already registered$/))
  })

  it('leaves a tool list refused after its session was lost to the reconnect that loss scheduled', async () => {
    vi.spyOn(Session.prototype, 'listTools').mockImplementationOnce(async function (this: Session) {
      process.kill(this.pid!, 'SIGKILL')
      await expect.poll(() => supervised.connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
      throw new BridgeError('tools/list returned cursor "a" twice: the pagination never ends', 'INVALID_TOOL_LIST')
    })
    const supervised = await supervise(stdio(lineServer()))
    const { connection, clock } = supervised
    const { error } = await connection.ready
    expect(BridgeError.is(error) && error.code).toBe('INVALID_TOOL_LIST')
    expect(connection.status).toMatchObject({ kind: 'reconnecting', attempt: 1 })
    expect(clock.pending).toBe(1)
  })

  it('stops for good on a working directory that does not exist, saying to reload', async () => {
    const { connection, clock, logs } = await supervise(stdio(lineServer(), { cwd: '/nonexistent/connection-test' }))
    const { error } = await connection.ready
    expect(BridgeError.is(error) && error.code).toBe('INVALID_CONFIG')
    expect(connection.status).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/\/nonexistent\/connection-test.*; then reload the plugin$/) })
    expect(clock.pending).toBe(0)
    expect(logs).toContain(`[error] mcp:line: ${(connection.status as { reason: string }).reason}`)
  })

  it('ignores list_changed from a session it has let go', async () => {
    const { connection, clock, states } = await supervise(stdio(lineServer({ onList: 'error', notifyAfterListError: true })))
    await connection.ready
    const pid = states.find(([, p]) => p !== undefined)?.[1]
    // The server sends list_changed 50 ms after its error, then exits on EOF: once it is gone, it has spoken.
    if (pid !== undefined) await expect.poll(() => isAlive(pid), SPAWN_WAIT).toBe(false)
    expect(clock.pending).toBe(1)
    expect(clock.delays).toEqual([100])
  })

  it('does not re-sync for a list_changed whose wait ends after the session was lost', async () => {
    const { connection, clock, text } = await supervise(stdio(lineServer(), { listChanged: { debounceMs: 10, maxWaitMs: 50 } }))
    await connection.ready
    await connection.invoke('notify', {}, exec())
    expect(clock.pending).toBe(1) // the debounce
    await connection.invoke('die', {}, exec()).catch(() => {})
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
    clock.advance(10) // the wait ends, with the session gone
    clock.advance(100) // the reconnect
    // Its first sync runs after every sync queued before it, so a re-sync would have shown by now.
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('connected')
    expect(text()).not.toMatch(/tool re-sync/)
    expect(text()).toMatch(/reconnected and re-synced tools \(attempt 1\/3\)/)
  })

  it('bounds a paged re-sync as a whole by connectTimeoutMs, not each page', async () => {
    const { root, connection, clock, text } = await supervise(
      stdio(lineServer({ slowResyncPages: 1_000 }), { connectTimeoutMs: 1_500, listChanged: { debounceMs: 10, maxWaitMs: 50 } }),
    )
    expect(await connection.ready).toEqual({})
    await connection.invoke('notify', {}, exec())
    clock.advance(10)
    await expect.poll(() => text(), SPAWN_WAIT).toMatch(/\[error\] mcp:line: tool re-sync failed, keeping the previous tools: .*tools\/list did not complete within connectTimeoutMs \(1500 ms\)/)
    expect(root.tools.list().map((t) => t.name)).toEqual(['mcp__line__die', 'mcp__line__ok'])
  })

  it('drops a re-sync listing that outlived its session', async () => {
    const { root, connection, clock, logs } = await supervise(stdio(lineServer(), { listChanged: { debounceMs: 10, maxWaitMs: 50 } }))
    await connection.ready
    vi.spyOn(Session.prototype, 'listTools').mockImplementationOnce(async function (this: Session) {
      process.kill(this.pid!, 'SIGKILL')
      await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
      return [{ name: 'late', inputSchema: { type: 'object' } }]
    })
    await connection.invoke('notify', {}, exec())
    clock.advance(10)
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
    clock.advance(100) // the reconnect, whose first sync runs after the re-sync that got the late listing
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('connected')
    // Registered by the first session and by the reconnect, never from the late listing in between.
    expect(logs.filter((line) => /registered \d+ tools$/.test(line))).toEqual(['[debug] mcp:line: registered 2 tools', '[debug] mcp:line: registered 2 tools'])
    expect(root.tools.list().map((t) => t.name)).toEqual(['mcp__line__die', 'mcp__line__ok'])
  })
})

describe('ServerConnection re-syncs', () => {
  it('collapses a burst of list_changed while a re-sync waits its turn into that one', async () => {
    const { connection, clock, logs } = await supervise(stdio(lineServer({ holdFirstResync: true }), { listChanged: { debounceMs: 10, maxWaitMs: 50 } }))
    await connection.ready
    const listings = () => logs.filter((line) => /stderr: list \d+$/.test(line)).length
    const synced = () => logs.filter((line) => line.endsWith('registered 2 tools')).length
    const changed = async () => {
      await connection.invoke('notify', {}, exec())
      clock.advance(10)
    }
    // Re-sync 1 is held by the server until released, not for a fixed time: on a loaded machine
    // the three changes below took longer than a fixed delay, and each fell after it.
    await changed() // re-sync 1 starts, and is held
    await expect.poll(listings, SPAWN_WAIT).toBe(2)
    await changed() // re-sync 2 waits its turn
    await changed() // nothing more to do: re-sync 2 will see this change
    await changed()
    await connection.invoke('release', {}, exec()) // re-sync 1 ends, re-sync 2 runs
    await expect.poll(synced, SPAWN_WAIT).toBe(3)
    // A re-sync that should not exist would have asked for the list as re-sync 2 ended, before
    // this call reaches the server, which reads its input in order.
    expect(await connection.invoke('count', {}, exec())).toMatchObject({ content: [{ text: '3' }] })
    expect(listings()).toBe(3)
  })

  it('says nothing of a re-sync that dispose cut short', async () => {
    const { connection, clock, logs, text } = await supervise(stdio(lineServer({ resyncDelay: 60_000 }), { listChanged: { debounceMs: 10, maxWaitMs: 50 } }))
    await connection.ready
    await connection.invoke('notify', {}, exec())
    clock.advance(10)
    await expect.poll(() => logs.some((line) => line.endsWith('stderr: list 2')), SPAWN_WAIT).toBe(true)
    // dispose returns once the queued syncs are over, the one it aborted included.
    await connection.dispose()
    expect(text()).not.toMatch(/re-sync/)
  })

  it('re-syncs again for a list_changed that comes after the queued re-sync started', async () => {
    const { connection, clock, logs } = await supervise(stdio(lineServer(), { listChanged: { debounceMs: 10, maxWaitMs: 50 } }))
    await connection.ready
    const synced = () => logs.filter((line) => line.endsWith('registered 2 tools')).length
    for (const expected of [2, 3]) {
      await connection.invoke('notify', {}, exec())
      clock.advance(10)
      await expect.poll(synced, SPAWN_WAIT).toBe(expected)
    }
  })
})

describe('ServerConnection log lines, word for word', () => {
  it('when reconnect is disabled: after a failed start, and after a loss', async () => {
    const failed = await supervise(stdio(lineServer({ crashStarts: { file: starts(), from: 1, to: 9 } }), { reconnect: { enabled: false } }))
    await failed.connection.ready
    expect(failed.logs).toContain('[error] mcp:line: connection failed and reconnect is disabled: reload the plugin to connect')
    const lost = await supervise(stdio(lineServer(), { reconnect: { enabled: false } }))
    await lost.connection.ready
    await lost.connection.invoke('die', {}, exec()).catch(() => {})
    await expect.poll(() => lost.connection.status.kind, SPAWN_WAIT).toBe('stopped')
    expect(lost.logs).toContain('[error] mcp:line: connection lost and reconnect is disabled: registered tools will fail until the plugin is reloaded')
  })

  it('when the reconnect budget is spent', async () => {
    const { connection, clock, logs } = await supervise(stdio(lineServer({ crashStarts: { file: starts(), from: 1, to: 9 } }), { reconnect: { initialDelayMs: 10, maxDelayMs: 10, maxAttempts: 1 } }))
    await connection.ready
    clock.advance(10)
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('stopped')
    expect(logs).toContain('[error] mcp:line: gave up after 1 consecutive failed reconnect attempts: tools unregistered; reload the plugin to reconnect')
  })

  it('for each tool it does not register', async () => {
    const { connection, logs } = await supervise(stdio(lineServer({ extraTools: [{ name: 'flat', inputSchema: { type: 'string' } }] })))
    await connection.ready
    expect(logs).toContain('[warn] mcp:line: tool "flat" not registered: inputSchema must have type "object"')
  })

  it("for a tool's outputSchema that cannot be compiled", async () => {
    const weird = { name: 'weird', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } }
    const { root, connection, logs } = await supervise(stdio(lineServer({ extraTools: [weird] })))
    await connection.ready
    expect(await root.tools.execute('mcp__line__weird', {})).toMatchObject({ isError: false })
    expect(logs).toContainEqual(expect.stringMatching(/^\[warn\] mcp:line: outputSchema of "weird" cannot be compiled, results are not checked against it: /))
  })
})

describe('ServerConnection without image services', () => {
  it('still answers a call whose result is an image', async () => {
    const { root, connection } = await supervise(stdio(lineServer({ extraTools: [{ name: 'image', inputSchema: { type: 'object' } }] })))
    await connection.ready
    expect(await root.tools.execute('mcp__line__image', {})).toMatchObject({ isError: false })
  })
})

describe('ServerConnection and what the transport reports', () => {
  it('skips a stray line on stdout without a warning', async () => {
    const { connection, logs } = await supervise(stdio(lineServer({ strayLine: true })))
    expect(await connection.ready).toEqual({})
    expect(logs.filter((line) => !line.startsWith('[debug]'))).toEqual([])
  })

  it('notices an HTTP server that went away while idle, with no call to find out', async () => {
    const factory = () => {
      const server = new Server({ name: 'idle', version: '1' }, { capabilities: { tools: {} } })
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }))
      return server
    }
    const http = await serveHttp(factory)
    const { connection, text } = await supervise({ transport: 'streamable-http', serverName: 'line', url: http.url })
    expect(await connection.ready).toEqual({})
    await http.close()
    await expect.poll(() => connection.status.kind, SPAWN_WAIT).toBe('reconnecting')
    expect(text()).toMatch(/connection lost: /)
  })
})
