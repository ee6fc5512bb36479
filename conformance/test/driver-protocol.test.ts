import { describe, expect, it } from 'vitest'
import { callExpectationFor, checkNotApplicable, scenarioNotApplicable } from '../src/client/applicability.ts'
import { driverAdapter, driverOptions, driverServer } from '../src/client/driver/adapter.ts'
import { parseDriverLine } from '../src/client/driver/protocol.ts'
import { handshakeProblems } from '../src/client/invariants.ts'
import { loadScenarios } from '../src/client/load.ts'
import { runScenario } from '../src/client/run-scenario.ts'
import { parseCommand } from '../src/cli/parse.ts'

const scenarios = new Map(loadScenarios().map((loaded) => [loaded.scenario.id, loaded]))
const SDK_DRIVER = `node ${new URL('../drivers/sdk-client.mjs', import.meta.url).pathname}`

describe('driver protocol lines', () => {
  it('reads answers and events, and names what is wrong with anything else', () => {
    expect(parseDriverLine('{"id":1,"ok":true,"tools":[{"name":"a"}]}')).toEqual({ answer: { id: 1, ok: true, tools: [{ name: 'a' }] } })
    expect(parseDriverLine('{"id":2,"ok":false,"error":"boom"}')).toEqual({ answer: { id: 2, ok: false, error: 'boom' } })
    expect(parseDriverLine('{"event":"tools","tools":[]}')).toEqual({ event: { event: 'tools', tools: [] } })
    expect(parseDriverLine('garbage')).toEqual({ invalid: 'not JSON: garbage' })
    expect(parseDriverLine('{"id":3,"ok":false}')).toHaveProperty('invalid')
    expect(parseDriverLine('{"id":3,"ok":true,"tools":[{"title":"x"}]}')).toHaveProperty('invalid')
    expect(parseDriverLine('{"event":"other"}')).toHaveProperty('invalid')
  })

  it('hands the client the fixture with its files in argv and only the configured environment', () => {
    const target = { transport: 'stdio' as const, command: 'node', args: ['cli.js'], env: { MCP_FIXTURE_WIRE: '/w', MCP_FIXTURE_STATE: '/s' } }
    expect(driverServer(target, { env: { TOKEN: 'given' } })).toEqual({
      server: { transport: 'stdio', command: 'node', args: ['cli.js', '--wire', '/w', '--state', '/s'], env: { TOKEN: 'given' } },
      marker: '/w',
    })
    expect(driverServer({ transport: 'http', url: 'http://127.0.0.1:1/mcp' }, {})).toEqual({ server: { transport: 'http', url: 'http://127.0.0.1:1/mcp' } })
    expect(driverOptions({ toolCallTimeoutMs: 200, connectTimeoutMs: 300, serverName: 'x' })).toEqual({ callTimeoutMs: 200, connectTimeoutMs: 300 })
  })
})

describe('applicability', () => {
  it('judges a client on isError and declared-universal fields only, and says what it left out', () => {
    expect(callExpectationFor({ code: 'TOOL_TIMEOUT', text: 'ours' }, 'client')).toEqual({ expect: { isError: true }, dropped: ['code TOOL_TIMEOUT', 'text'] })
    expect(callExpectationFor({ isError: false, text: 'x', notText: 'y', universal: ['notText'] }, 'client')).toEqual({ expect: { isError: false, notText: 'y' }, dropped: ['text'] })
    expect(callExpectationFor({ code: 'X', text: 'ours' }, 'bridge')).toEqual({ expect: { code: 'X', text: 'ours' }, dropped: [] })
  })

  it('leaves bridge scenarios, undeclared features and bridge checks out for a client, never for a bridge', () => {
    const bridgeOnly = scenarios.get('foreign-registration-rollback')!.scenario
    const storm = scenarios.get('list-changed-storm')!.scenario
    const clean = scenarios.get('clean-discovery')!.scenario
    expect(scenarioNotApplicable(bridgeOnly, 'client', [])).toMatch(/^bridge only: squatting/)
    expect(scenarioNotApplicable(bridgeOnly, 'bridge', [])).toBeUndefined()
    expect(scenarioNotApplicable(storm, 'client', [])).toMatch(/declare "listChanged"/)
    expect(scenarioNotApplicable(storm, 'client', ['listChanged'])).toBeUndefined()
    expect(checkNotApplicable(clean, 'client', 'expect/public-names')).toMatch(/naming contract/)
    expect(checkNotApplicable(clean, 'client', 'expect/call-3')).toMatch(/Servers MUST validate/)
    expect(checkNotApplicable(clean, 'client', 'invariant/raw-names-on-wire')).toBeUndefined()
    expect(checkNotApplicable(clean, 'bridge', 'expect/public-names')).toBeUndefined()
  })
})

describe('the handshake invariant', () => {
  const recv = (msg: object) => ({ dir: 'recv' as const, msg: { jsonrpc: '2.0', ...msg } as never })
  const answer = { dir: 'send' as const, msg: { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } } as never }
  const texts = (wire: Parameters<typeof handshakeProblems>[0]) => handshakeProblems(wire).map((p) => `${p.level}: ${p.text}`)
  it('wants initialize first (MUST), no request but ping before its answer (SHOULD NOT), and the initialized notification (MUST)', () => {
    const init = recv({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } })
    const done = recv({ method: 'notifications/initialized' })
    expect(texts([init, recv({ id: 2, method: 'ping' }), answer, done, recv({ id: 3, method: 'tools/list' })])).toEqual([])
    expect(texts([recv({ id: 1, method: 'tools/list' })])).toEqual(['must: tools/list was sent before initialize'])
    expect(texts([init, recv({ id: 2, method: 'tools/list' }), answer, done])).toEqual(['should: tools/list was sent before the server had answered initialize'])
    // After the answer and before the notification: no sentence with a keyword; never sent at all: the MUST.
    expect(texts([init, answer, recv({ id: 2, method: 'tools/list' }), done])).toEqual(['info: tools/list was sent after the initialize answer but before notifications/initialized; no sentence with a keyword forbids that order'])
    expect(texts([init, answer, recv({ id: 2, method: 'tools/list' })])).toEqual(['must: tools/list went on after the initialize answer, and the client never sent notifications/initialized'])
    // A notifications/initialized with an id is a request, not the notification.
    expect(texts([init, answer, recv({ id: 7, method: 'notifications/initialized' }), recv({ id: 2, method: 'tools/list' })])).toEqual([
      'must: tools/list went on after the initialize answer, and the client never sent notifications/initialized (its notifications/initialized carried an id, so it was a request: invariant/jsonrpc reports it)',
    ])
    // No MUST says the offered version is a published one: information; a version that is no string breaks the MUST.
    expect(texts([recv({ id: 1, method: 'initialize', params: { protocolVersion: '1999-01-01' } })])).toEqual([
      'info: initialize offered protocolVersion "1999-01-01", which is no published revision (the spec requires a version the client supports, and cannot be checked against a list)',
    ])
    expect(texts([recv({ id: 1, method: 'initialize', params: { protocolVersion: 20251125 } })])).toEqual(['must: initialize offered protocolVersion 20251125, not a version string'])
  })
})

describe('mcp-conformance client --driver', () => {
  it('takes the driver command for client runs only', () => {
    const parsed = parseCommand(['client', '--driver', 'node my-driver.mjs --flag', '--scenario', 'clean-discovery'], '/tmp')
    expect(parsed.ok && parsed.command.kind === 'client' && parsed.command.options.driver).toBe('node my-driver.mjs --flag')
    expect(parseCommand(['server', '--driver', 'x', '--url', 'http://h/'], '/tmp')).toEqual({ ok: false, error: '--driver is not an option of "server"' })
  })
})

describe('a client driven through the protocol', () => {
  it.each(['stdio', 'http'] as const)('the raw SDK client passes clean-discovery over %s, with the bridge-only checks skipped and said why', async (transport) => {
    const result = await runScenario(scenarios.get('clean-discovery')!, transport, driverAdapter(SDK_DRIVER), { updateSnapshots: false })
    const status = Object.fromEntries(result.checks.map((c) => [c.id, c.status]))
    expect(result.checks.filter((c) => c.status === 'fail' || c.status === 'error')).toEqual([])
    // Over HTTP the fixture runs in the kit: no server process to judge, and the skip says so.
    const orphans = transport === 'stdio' ? 'pass' : 'skip'
    expect(status).toMatchObject({ 'expect/tools': 'pass', 'invariant/raw-names-on-wire': 'pass', 'invariant/handshake': 'pass', 'invariant/no-orphans': orphans, 'expect/public-names': 'skip', 'expect/call-3': 'skip' })
    expect(result.checks.find((c) => c.id === 'expect/public-names')!.message).toMatch(/^not applicable: public names are a bridge naming contract/)
    expect(result.checks.find((c) => c.id === 'expect/call-1')!.message).toBe('as expected (not applicable to this client: text)')
  })

  it('a bridge-only scenario is one skip that says why', async () => {
    const result = await runScenario(scenarios.get('duplicate-server-name')!, 'stdio', driverAdapter(SDK_DRIVER), { updateSnapshots: false })
    expect(result.checks).toEqual([expect.objectContaining({ id: 'applies/scenario', status: 'skip', message: expect.stringMatching(/^not applicable: bridge only: server names/) })])
  })

  it('a driver that cannot start or breaks the protocol is a harness error, not a verdict', async () => {
    const missing = await runScenario(scenarios.get('clean-discovery')!, 'stdio', driverAdapter('node /nonexistent/driver.mjs'), { updateSnapshots: false })
    expect(missing.checks.map((c) => [c.id, c.status])).toEqual([['harness/run', 'error']])
    const noisy = await runScenario(scenarios.get('clean-discovery')!, 'http', driverAdapter(`echo not-json; ${SDK_DRIVER}`), { updateSnapshots: false })
    expect(noisy.checks.find((c) => c.id === 'harness/driver')).toMatchObject({ status: 'error', message: 'not JSON: not-json' })
  })
})

describe('the documented driver', () => {
  it('FORMAT.md shows conformance/drivers/sdk-client.mjs exactly as it is run', async () => {
    const { readFileSync } = await import('node:fs')
    const format = readFileSync(new URL('../FORMAT.md', import.meta.url), 'utf8')
    const driver = readFileSync(new URL('../drivers/sdk-client.mjs', import.meta.url), 'utf8')
    expect(format).toContain(`\`\`\`js\n${driver.trimEnd()}\n\`\`\``)
  })
})

describe('HTTP requests in the wire log', () => {
  it('the session header rule and the DELETE at close are judged from the requests', async () => {
    const { missingSessionHeaders, checkHttpInvariants } = await import('../src/client/http-invariants.ts')
    const open = { method: 'POST', path: '/mcp', status: 200, newSession: 's1' }
    const inSession = { method: 'POST', path: '/mcp', rpc: 'notifications/initialized', status: 202, session: 's1' }
    expect(missingSessionHeaders([open, inSession])).toEqual([])
    expect(missingSessionHeaders([open, inSession, { method: 'GET', path: '/mcp', status: 400 }])).toEqual(['request 3 (GET, answered 400) carried no Mcp-Session-Id'])
    // The initialized notification itself is held to the session it accepts.
    expect(missingSessionHeaders([open, { ...inSession, session: undefined }])).toEqual(['request 2 (POST notifications/initialized, answered 202) carried no Mcp-Session-Id'])
    // A client that turned the answer down (it never sent initialized) took no session: its next
    // request (a legacy HTTP+SSE fallback GET, a new initialize) is not held to it.
    expect(missingSessionHeaders([open, { method: 'GET', path: '/mcp', status: 400 }])).toEqual([])
    // The first two checks; the protocol version header is judged in client-invariants.test.ts.
    const statuses = (http: Parameters<typeof checkHttpInvariants>[0]) => checkHttpInvariants(http).slice(0, 2).map((c) => c.status)
    expect(statuses([open, inSession, { method: 'DELETE', path: '/mcp', status: 200, session: 's1' }])).toEqual(['pass', 'pass'])
    expect(statuses([open, inSession])).toEqual(['pass', 'warn'])
    // An initialize that opened a session but was never answered (hang-on-initialize): no DELETE
    // owed, and nothing to judge is a skip, never a pass.
    expect(statuses([open])).toEqual(['skip', 'skip'])
    expect(statuses([])).toEqual(['skip', 'skip'])
  })

  it.each([
    ['sdk-client.mjs, which ends its session with close() only', SDK_DRIVER, 'warn'],
  ])('a real run records method, status and session header (%s)', async (_label, driver, deleteStatus) => {
    const result = await runScenario(scenarios.get('clean-discovery')!, 'http', driverAdapter(driver), { updateSnapshots: false })
    expect(result.checks.find((c) => c.id === 'invariant/http-session-header')).toMatchObject({ status: 'pass' })
    expect(result.checks.find((c) => c.id === 'invariant/http-session-delete')).toMatchObject({ status: deleteStatus })
  })
})

describe('mcp-conformance judge', () => {
  it('judges a wire log recorded while a client talked to mcp-fixture, with the scenario bounds', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { fixtureCommand } = await import('@mcp-bridge/fixtures-server')
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js')
    const { judgeWireLog } = await import('../src/client/judge.ts')
    const dir = mkdtempSync(join(tmpdir(), 'judge-'))
    const wire = join(dir, 'wire.jsonl')
    const loaded = scenarios.get('pagination')!
    const { command, args } = fixtureCommand(loaded.file)
    const client = new Client({ name: 'outside', version: '1' })
    await client.connect(new StdioClientTransport({ command, args: [...args, '--wire', wire] }))
    await client.listTools() // one page of three: the scenario wants all six requests
    await client.close()
    const result = judgeWireLog(wire, loaded.scenario)
    expect(Object.fromEntries(result.checks.map((c) => [c.id, c.status]))).toEqual({
      // No tools/call in this log: nothing to judge.
      'invariant/raw-names-on-wire': 'skip',
      'invariant/handshake': 'pass',
      'invariant/jsonrpc': 'pass',
      // The client cancelled nothing.
      'invariant/cancellation': 'skip',
      'expect/received/tools/list': 'warn',
    })
    expect(judgeWireLog(join(dir, 'missing.jsonl')).checks.find((c) => c.id === 'judge/wire-log')).toMatchObject({ status: 'error' })
    expect(parseCommand(['judge'], '/tmp')).toEqual({ ok: false, error: '"judge" needs --wire FILE (a wire log written by mcp-fixture --wire FILE)' })
    rmSync(dir, { recursive: true, force: true })
  })
})
