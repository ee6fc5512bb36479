import { describe, expect, it, vi } from 'vitest'
import { parseConfig } from '../src/config.ts'
import { redactSecrets } from '@mcp-bridge/process'
import { eraAfterFailure, Session, type SessionHooks } from '../src/session.ts'
import { afterTest } from './support/cleanup.ts'
import { isAlive } from './support/host.ts'

/**
 * One Session against a real child process, without a connection supervisor around it: what its
 * handshake, discovery and end tell the caller (the messages and codes the host sees), and what
 * the hooks hear. The child is a line-based MCP server whose behaviour the test passes as JSON.
 */
interface Behaviour {
  /** Lines written to stderr at start (after "pid N"). */
  stderr?: number
  /** Answer initialize (default), stay silent, or refuse it with JSON-RPC error 7. */
  initialize?: 'answer' | 'never' | 'refuse'
  /** Say on stderr that initialize arrived. */
  announceInitialize?: boolean
  /** After notifications/initialized: write this many stderr lines, then exit. */
  dieAfterInitialized?: number
  /** The era probe (server/discover): refused with -32601 (default), never answered, refused after 1.5 s, or the process exits. */
  discover?: 'refuse' | 'silent' | 'late' | 'exit'
}

const SERVER = `
  const b = JSON.parse(process.argv[1])
  process.stderr.write('pid ' + process.pid + '\\n')
  for (let i = 1; i <= (b.stderr ?? 0); i++) process.stderr.write('line ' + i + '\\n')
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
  require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line)
    // A legacy server: the era probe is an unknown method before initialize.
    if (m.method === 'server/discover' && b.discover) process.stderr.write('probed\\n')
    if (m.method === 'server/discover' && b.discover === 'exit') process.exit(4)
    if (m.method === 'server/discover' && b.discover === 'late') return setTimeout(() => { process.stderr.write('refusing\\n'); send({ id: m.id, error: { code: -32601, message: 'Method not found' } }) }, 1500)
    if (m.method === 'server/discover' && b.discover !== 'silent') return send({ id: m.id, error: { code: -32601, message: 'Method not found' } })
    if (m.method === 'initialize' && b.announceInitialize) process.stderr.write('initialize arrived\\n')
    if (m.method === 'initialize' && b.initialize === 'refuse') return send({ id: m.id, error: { code: 7, message: 'not today' } })
    if (m.method === 'initialize' && b.initialize !== 'never') process.stderr.write('client ' + JSON.stringify({ clientInfo: m.params.clientInfo, capabilities: m.params.capabilities }) + '\\n')
    if (m.method === 'initialize' && b.initialize !== 'never') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1.2.3' } } })
    if (m.method === 'notifications/initialized' && b.dieAfterInitialized !== undefined) {
      for (let i = 1; i <= b.dieAfterInitialized; i++) process.stderr.write('last ' + i + '\\n')
      process.exit(3)
    }
    if (m.method === 'tools/list') {
      process.stderr.write('list ' + JSON.stringify(m.params) + '\\n')
      const cursor = m.params && m.params.cursor
      send({ id: m.id, result: cursor === 'c2' ? { tools: [{ name: 'b', inputSchema: { type: 'object' } }] } : { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'c2' } })
    }
  })`

function config(behaviour: Behaviour, extra: Record<string, unknown> = {}) {
  return parseConfig({ transport: 'stdio', serverName: 'raw', command: process.execPath, args: ['-e', SERVER, JSON.stringify(behaviour)], killGraceMs: 200, ...extra })
}

/** Hooks that record what the session told them; `line(text)` resolves once that stderr line arrived. */
function recorder() {
  const stderr: string[] = []
  const lost: string[] = []
  const waiters: Array<{ text: string; resolve: () => void }> = []
  const hooks: SessionHooks = {
    onToolListChanged: () => {},
    onLost: (reason) => lost.push(reason),
    onStderrLine: (line) => {
      stderr.push(line)
      for (const waiter of waiters.filter((w) => w.text === line)) waiter.resolve()
    },
    onNotice: () => {},
    onSecretLookingEnv: () => {},
  }
  const line = (text: string) => (stderr.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ text, resolve })))
  const pid = () => Number(/^pid (\d+)$/.exec(stderr.find((l) => l.startsWith('pid ')) ?? '')?.[1])
  return { hooks, stderr, lost, line, pid }
}

async function open(behaviour: Behaviour, deadline: AbortSignal, extra: Record<string, unknown> = {}) {
  const seen = recorder()
  const session = await Session.open(config(behaviour, extra), seen.hooks, deadline, redactSecrets)
  afterTest(session, (s) => s.close())
  return { session, ...seen }
}

describe('Session against a real child', () => {
  it('names the server, lists every page (the first request carries no cursor), and closes once, ending the child', async () => {
    const { session, stderr, lost, line } = await open({}, AbortSignal.timeout(10_000))
    expect(session.serverVersion).toBe('raw 1.2.3')
    // The client names itself, and declares no client capability (no sampling, roots or elicitation).
    await line('client {"clientInfo":{"name":"mcp-bridge","version":"0.1.0"},"capabilities":{}}')
    expect(session.supportsToolTasks).toBe(false)
    const pid = session.pid!
    expect(pid).toBeGreaterThan(0)
    expect(await session.listTools(AbortSignal.timeout(10_000))).toEqual([
      { name: 'a', inputSchema: { type: 'object' } },
      { name: 'b', inputSchema: { type: 'object' } },
    ])
    // stderr is a pipe of its own: the second request's line may arrive after the answer.
    await line('list {"cursor":"c2"}')
    expect(stderr.filter((l) => l.startsWith('list '))).toEqual(['list {}', 'list {"cursor":"c2"}'])
    const closing = session.close()
    expect(session.close()).toBe(closing)
    await closing
    await expect.poll(() => isAlive(pid)).toBe(false)
    // Closed on purpose: that is no loss to report.
    expect(lost).toEqual([])
  })

  it("a handshake the deadline's timeout ends is CONNECT_TIMEOUT, naming connectTimeoutMs and quoting the child's last 5 stderr lines; the child is stopped", async () => {
    const seen = recorder()
    const deadline = new AbortController()
    void seen.line('line 6').then(() => deadline.abort(new DOMException('the time is up', 'TimeoutError')))
    const error = await Session.open(config({ stderr: 6, initialize: 'never' }, { connectTimeoutMs: 12_345 }), seen.hooks, deadline.signal, redactSecrets).catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'BridgeError',
      code: 'CONNECT_TIMEOUT',
      message: 'initialize failed: no complete handshake within connectTimeoutMs (12345 ms) (server stderr: line 2 | line 3 | line 4 | line 5 | line 6)',
    })
    expect(seen.pid()).toBeGreaterThan(0)
    await expect.poll(() => isAlive(seen.pid())).toBe(false)
  })

  it('a handshake ended by anything else (the plugin being disposed) fails with that reason, not as a timeout', async () => {
    const seen = recorder()
    const deadline = new AbortController()
    void seen.line('line 1').then(() => deadline.abort(new Error('the plugin is being disposed')))
    const error = await Session.open(config({ stderr: 1, initialize: 'never' }), seen.hooks, deadline.signal, redactSecrets).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'SERVER_UNAVAILABLE', message: 'initialize failed: the plugin is being disposed (server stderr: pid ' + seen.pid() + ' | line 1)' })
    expect(seen.pid()).toBeGreaterThan(0)
    await expect.poll(() => isAlive(seen.pid())).toBe(false)
  })

  it("a connectTimeoutMs past the SDK's 60 s request timeout is the handshake's only bound: no SDK timer ends it first", async () => {
    // Only the timers are faked (the child, its pipes and setImmediate are real): 61 s pass at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const seen = recorder()
      const deadline = new AbortController()
      let settled = false
      const opening = Session.open(config({ initialize: 'never', announceInitialize: true }, { connectTimeoutMs: 90_000 }), seen.hooks, deadline.signal, redactSecrets)
        .catch((e: unknown) => e)
        .finally(() => (settled = true))
      await seen.line('initialize arrived')
      vi.advanceTimersByTime(61_000)
      for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve))
      expect(settled).toBe(false)
      deadline.abort(new DOMException('the time is up', 'TimeoutError'))
      expect(await opening).toMatchObject({ code: 'CONNECT_TIMEOUT', message: expect.stringMatching(/^initialize failed: no complete handshake within connectTimeoutMs \(90000 ms\)/) })
    } finally {
      vi.useRealTimers()
    }
  })

  it('an initialize refused with a positive JSON-RPC error code is not taken for an HTTP status', async () => {
    const error = await open({ initialize: 'refuse' }, AbortSignal.timeout(10_000)).catch((e: unknown) => e)
    expect(String(error)).toMatch(/^BridgeError: initialize failed: not today/)
    expect(String(error)).not.toMatch(/HTTP/)
  })

  it('probes with server/discover first; a legacy server that never answers it waits at most half of connectTimeoutMs', async () => {
    const seen = recorder()
    // connectTimeoutMs is the only other bound, and the deadline below: without the probe's own
    // wait (min(10 s, connectTimeoutMs / 2)), the probe would use it all and the open fail.
    const connectTimeoutMs = 8_000
    const session = await Session.open(config({ discover: 'silent', announceInitialize: true }, { connectTimeoutMs }), seen.hooks, AbortSignal.timeout(connectTimeoutMs), redactSecrets)
    afterTest(session, (s) => s.close())
    expect(session.era).toEqual({ kind: 'legacy' })
    await seen.line('initialize arrived')
    expect(seen.stderr.indexOf('probed')).toBeLessThan(seen.stderr.indexOf('initialize arrived'))
  })

  it('the probe outlasts killGraceMs: a server slow to answer it (as one still starting is) gets no initialize before its answer', async () => {
    const seen = recorder()
    // killGraceMs is 200 ms here; the answer comes after 1.5 s, well inside the probe's wait (min(10 s, connectTimeoutMs / 2)).
    const session = await Session.open(config({ discover: 'late', announceInitialize: true }), seen.hooks, AbortSignal.timeout(30_000), redactSecrets)
    afterTest(session, (s) => s.close())
    expect(session.era).toEqual({ kind: 'legacy' })
    await seen.line('initialize arrived')
    expect(seen.stderr.indexOf('refusing')).toBeGreaterThan(-1)
    expect(seen.stderr.indexOf('refusing')).toBeLessThan(seen.stderr.indexOf('initialize arrived'))
  })

  it('a server that exits on the probe fails the attempt, and the next one speaks legacy without probing', async () => {
    const seen = recorder()
    const error = await Session.open(config({ discover: 'exit', announceInitialize: true }), seen.hooks, AbortSignal.timeout(20_000), redactSecrets).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/the server process exited \(code 4\)|the connection closed during the server\/discover probe/) })
    const next = eraAfterFailure(error)
    expect(next).toEqual({ kind: 'legacy' })
    const session = await Session.open(config({ discover: 'exit', announceInitialize: true }), seen.hooks, AbortSignal.timeout(20_000), redactSecrets, next)
    afterTest(session, (s) => s.close())
    expect(session.era).toEqual({ kind: 'legacy' })
    await seen.line('initialize arrived')
    // Two children: the one that exited on the probe, and one that was not probed.
    expect(seen.stderr.filter((line) => line === 'probed')).toHaveLength(1)
    expect(seen.stderr.filter((line) => line.startsWith('pid '))).toHaveLength(2)
    expect(eraAfterFailure(new Error('any other failure'))).toBeUndefined()
  })

  it('a command that cannot be started is INVALID_CONFIG, passed on as the transport worded it (not as an initialize failure)', async () => {
    const hooks = recorder().hooks
    const error = await Session.open(parseConfig({ transport: 'stdio', serverName: 'raw', command: '/nonexistent/mcp-server' }), hooks, AbortSignal.timeout(10_000), redactSecrets).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'BridgeError', code: 'INVALID_CONFIG', message: expect.stringMatching(/^mcp-client config: command "\/nonexistent\/mcp-server" was not found: that path does not exist;/) })
  })

  it('a discovery the deadline ends names connectTimeoutMs', async () => {
    const { session } = await open({}, AbortSignal.timeout(10_000), { connectTimeoutMs: 23_456 })
    const deadline = new AbortController()
    deadline.abort(new DOMException('the time is up', 'TimeoutError'))
    const error = await session.listTools(deadline.signal).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'CONNECT_TIMEOUT', message: expect.stringMatching(/^tools\/list failed: tools\/list did not complete within connectTimeoutMs \(23456 ms\)/) })
  })

  it('a child that exits after the handshake is reported lost once, with its last 5 stderr lines', async () => {
    const { session, lost } = await open({ dieAfterInitialized: 7 }, AbortSignal.timeout(10_000))
    await expect.poll(() => lost.length).toBe(1)
    expect(lost).toEqual(['the connection closed; last stderr lines: last 3 | last 4 | last 5 | last 6 | last 7'])
    const error = await session.listTools(AbortSignal.timeout(10_000)).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/^tools\/list failed: Not connected \(server stderr: last 3 \| last 4 \| last 5 \| last 6 \| last 7\)$/) })
    expect(lost).toHaveLength(1)
  })
})
