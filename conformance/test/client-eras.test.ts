import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { HttpEntry, WireEntry } from '@mcp-bridge/fixtures-server'
import { afterAll, describe, expect, it } from 'vitest'
import { driverAdapter } from '../src/client/driver/adapter.ts'
import { clientEras } from '../src/client/eras.ts'
import { checkHttpInvariants } from '../src/client/http-invariants.ts'
import { expandRuns } from '../src/client/index.ts'
import { checkWireInvariants, handshakeProblems } from '../src/client/invariants.ts'
import { loadScenarios, parseScenario } from '../src/client/load.ts'
import { checkModernInvariants } from '../src/client/modern-invariants.ts'
import { runScenario } from '../src/client/run-scenario.ts'
import { runLabel } from '../src/model.ts'
import { suiteLabel } from '../src/report/compare.ts'
import { erasOf } from '../src/client/table.ts'
import { verdictsFor } from '../src/client/verdicts.ts'
import type { SuiteResult } from '../src/model.ts'

// Client scenarios at each protocol era (MCP 2026-07-28 basic/versioning): the scenario format,
// the era a client spoke, the modern rules, the session rules kept to legacy sessions, and real
// runs of the SDK's v2 client (conformance/drivers/sdk-v2-client.mjs) against a modern fixture.

const V = 'io.modelcontextprotocol/protocolVersion'
const CAPS = 'io.modelcontextprotocol/clientCapabilities'
const INFO = 'io.modelcontextprotocol/clientInfo'
const meta = { [V]: '2026-07-28', [CAPS]: {}, [INFO]: { name: 'c', version: '1' } }
const recv = (msg: Record<string, unknown>): WireEntry => ({ dir: 'recv', msg: { jsonrpc: '2.0', ...msg } }) as WireEntry
const send = (msg: Record<string, unknown>): WireEntry => ({ dir: 'send', msg: { jsonrpc: '2.0', ...msg } }) as WireEntry
const post = (rpc: string, extra: Partial<HttpEntry['http']> = {}): HttpEntry['http'] => ({ method: 'POST', path: '/mcp', status: 200, rpc, accept: 'application/json, text/event-stream', ...extra })

const initialize = [
  recv({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
  send({ id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 's', version: '1' }, capabilities: {} } }),
  recv({ method: 'notifications/initialized' }),
]
const modern = [recv({ id: 1, method: 'server/discover', params: { _meta: meta } }), recv({ id: 2, method: 'tools/list', params: { _meta: meta } })]

describe('the era a client spoke', () => {
  it('is legacy after initialize, modern without it, legacy for a probe that fell back', () => {
    expect(clientEras(initialize)).toEqual(['legacy'])
    expect(clientEras(modern)).toEqual(['modern'])
    expect(clientEras([recv({ id: 9, method: 'tools/call', params: { name: 'x', _meta: meta } })])).toEqual(['modern'])
    expect(clientEras([recv({ id: 0, method: 'server/discover', params: { _meta: meta } }), send({ id: 0, error: { code: -32601, message: 'no' } }), ...initialize])).toEqual(['legacy'])
    expect(clientEras([...initialize, recv({ id: 5, method: 'tools/list', params: { _meta: meta } })])).toEqual(['legacy', 'modern'])
    expect(clientEras([])).toEqual([])
  })
})

describe("the table's era column", () => {
  const suite = (spoke: SuiteResult['spoke'], era?: SuiteResult['era']): SuiteResult => ({ id: 's', title: 't', kind: 'client', target: 'c', checks: [], durationMs: 1, ...(spoke && { spoke }), ...(era && { era }) })
  it('is the union of what the runs show', () => {
    expect(erasOf([suite(['legacy']), suite(['legacy'], 'modern')])).toBe('legacy')
    expect(erasOf([suite(['modern']), suite(['modern'], 'dual')])).toBe('modern')
    expect(erasOf([suite(['legacy']), suite(['modern'], 'dual')])).toBe('dual')
    expect(erasOf([suite(undefined)])).toBe('—')
  })
})

describe('the modern rules', () => {
  it('fail a modern request without the required _meta fields (a MUST), warn one without clientInfo (a SHOULD)', () => {
    const wire = [recv({ id: 1, method: 'tools/list', params: { _meta: { [V]: '2026-07-28' } } })]
    const [required, info] = verdictsFor(undefined, 'client', checkModernInvariants(wire, undefined, 'modern'))
    expect(required).toMatchObject({ id: 'invariant/modern-meta', status: 'fail', spec: { keyword: 'MUST' } })
    expect(required!.message).toContain(`no ${CAPS}`)
    expect(required!.spec!.ref).toContain('fields marked as required MUST be included on every request')
    expect(info).toMatchObject({ id: 'invariant/modern-client-info', status: 'warn', spec: { keyword: 'SHOULD' } })
  })

  it('at a modern-only fixture, judge a request without any _meta, but not the refused initialize', () => {
    const wire = [initialize[0]!, recv({ id: 2, method: 'tools/list', params: {} })]
    expect(checkModernInvariants(wire, undefined, 'modern')[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/^request 1 \(tools\/list\) carried no/) as string })
    // At a dual-era fixture the same request belongs to a legacy client: not the modern rules'.
    expect(checkModernInvariants(wire, undefined, 'dual')[0]).toMatchObject({ status: 'skip' })
  })

  it('judge the HTTP metadata headers of every modern POST', () => {
    const good = [post('tools/call', { metaVersion: '2026-07-28', protocolVersion: '2026-07-28', mcpMethod: 'tools/call', mcpName: 'echo' })]
    expect(checkModernInvariants(modern, good, 'modern')[2]).toMatchObject({ id: 'invariant/modern-http-headers', status: 'pass' })
    const noName = [post('tools/call', { metaVersion: '2026-07-28', protocolVersion: '2026-07-28', mcpMethod: 'tools/call' })]
    expect(checkModernInvariants(modern, noName, 'modern')[2]).toMatchObject({ status: 'fail', message: expect.stringContaining('carried no Mcp-Name') as string, spec: { keyword: 'MUST' } })
    const mismatch = [post('tools/list', { metaVersion: '2026-07-28', protocolVersion: '2025-11-25', mcpMethod: 'tools/list' })]
    expect(checkModernInvariants(modern, mismatch, 'modern')[2]).toMatchObject({ status: 'fail', spec: { quote: expect.stringContaining('MUST match') as string } })
  })

  it('leave notification POSTs out of the metadata header rule, and still judge the requests beside them', () => {
    const notification = post('notifications/cancelled', { metaVersion: '2026-07-28', protocolVersion: '2026-07-28' })
    expect(checkModernInvariants(modern, [notification], 'modern')[2]).toMatchObject({ id: 'invariant/modern-http-headers', status: 'skip' })
    const bare = post('tools/list', { metaVersion: '2026-07-28', protocolVersion: '2026-07-28' })
    expect(checkModernInvariants(modern, [notification, bare], 'modern')[2]).toMatchObject({ status: 'fail', message: expect.stringMatching(/^POST 2 \(tools\/list.*carried no Mcp-Method$/) as string })
  })
})

describe('legacy rules are kept to legacy sessions', () => {
  it('skip the session rules for a client that spoke 2026-07-28 only', () => {
    const http = [post('server/discover', { metaVersion: '2026-07-28', protocolVersion: '2026-07-28' }), post('tools/list', { metaVersion: '2026-07-28', protocolVersion: '2026-07-28' })]
    const checks = checkHttpInvariants(http, { spokeLegacy: false })
    for (const id of ['invariant/http-session-header', 'invariant/http-session-delete', 'invariant/http-protocol-version']) {
      expect(checks.find((c) => c.id === id)).toMatchObject({ status: 'skip', message: expect.stringMatching(/^not judged: the client spoke MCP 2026-07-28 only/) as string })
    }
  })

  it('do not count a modern request beside a legacy session as a request missing its session id', () => {
    const http = [
      post('initialize', { newSession: 's1' }),
      post('notifications/initialized', { session: 's1' }),
      post('tools/list', { metaVersion: '2026-07-28', protocolVersion: '2026-07-28' }),
      { method: 'DELETE', path: '/mcp', status: 200, session: 's1' },
    ]
    expect(checkHttpInvariants(http).find((c) => c.id === 'invariant/http-session-header')).toMatchObject({ status: 'pass' })
  })

  it('skip the handshake for a modern client, and never take a modern request for one sent before initialize', () => {
    expect(checkWireInvariants(modern).find((c) => c.id === 'invariant/handshake')).toMatchObject({ status: 'skip', message: expect.stringMatching(/no initialize handshake/) as string })
    expect(handshakeProblems([modern[1]!, ...initialize])).toEqual([])
    expect(handshakeProblems([recv({ id: 7, method: 'tools/list', params: {} }), ...initialize])).toEqual([expect.objectContaining({ level: 'must', rule: 'first' })])
  })
})

describe('eras in the scenario format', () => {
  const base = 'id: x\ntitle: t\nspec: [{ ref: r }]\n'
  it('defaults to legacy, refuses server.era and a repeated era with one line', () => {
    expect(parseScenario(`${base}server: {}\n`, '/s/x.yaml').eras).toEqual(['legacy'])
    expect(() => parseScenario(`${base}server: { era: modern }\n`, '/s/x.yaml')).toThrow(/^\/s\/x\.yaml:4: server\.era: a scenario runs its fixture at the eras it lists: remove server\.era and write eras: \[\.\.\.\] at the top/)
    expect(() => parseScenario(`${base}eras: [modern, modern]\nserver: {}\n`, '/s/x.yaml')).toThrow(/:4: eras: an era is listed twice/)
    expect(() => parseScenario(`${base}eras: [future]\nserver: {}\n`, '/s/x.yaml')).toThrow(/:4: eras\[0\]: expected one of "legacy"\|"modern"\|"dual"; use one of them/)
  })

  it('expands runs over transport, then era; names non-legacy runs by their era', () => {
    const scenario = parseScenario(`${base}eras: [legacy, modern]\nserver: {}\n`, '/s/x.yaml')
    const runs = expandRuns([{ file: '/s/x.yaml', scenario }], ['stdio', 'http'])
    expect(runs.map((r) => runLabel(r.transport, r.era))).toEqual(['stdio', 'stdio.modern', 'http', 'http.modern'])
    expect(expandRuns([{ file: '/s/x.yaml', scenario }], ['http']).map((r) => runLabel(r.transport, r.era))).toEqual(['http', 'http.modern'])
    // Reports name a suite the same way, so the two eras of a run never share a comparison key.
    expect([suiteLabel({ id: 'x', transport: 'stdio' }), suiteLabel({ id: 'x', transport: 'stdio', era: 'modern' })]).toEqual(['x [stdio]', 'x [stdio.modern]'])
  })
})

describe('a modern client run at the modern era (the SDK v2 client, driven)', () => {
  const V2 = `node ${new URL('../drivers/sdk-v2-client.mjs', import.meta.url).pathname}`
  const V1 = `node ${new URL('../drivers/sdk-client.mjs', import.meta.url).pathname}`
  const dir = mkdtempSync(join(tmpdir(), 'kit-eras-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const clean = loadScenarios().find((l) => l.scenario.id === 'clean-discovery')!
  // Its snapshots are written to a temp folder: the kit's own are the bridge's, generated elsewhere.
  const loaded = { file: join(dir, 'clean-discovery.yaml'), scenario: clean.scenario }

  it.each(['stdio', 'http'] as const)('is judged on the modern rules and passes (%s)', async (transport) => {
    const result = await runScenario(loaded, transport, driverAdapter(V2), { updateSnapshots: true, era: 'modern' })
    expect(result.era).toBe('modern')
    expect(result.spoke).toEqual(['modern'])
    expect(result.checks.filter((c) => c.status === 'fail' || c.status === 'error')).toEqual([])
    expect(result.checks.find((c) => c.id === 'invariant/modern-meta')).toMatchObject({ status: 'pass' })
    expect(result.checks.find((c) => c.id === 'invariant/handshake')).toMatchObject({ status: 'skip' })
    if (transport === 'http') {
      expect(result.checks.find((c) => c.id === 'invariant/modern-http-headers')).toMatchObject({ status: 'pass' })
      expect(result.checks.find((c) => c.id === 'invariant/http-session-header')).toMatchObject({ status: 'skip' })
    }
    const snap = join(dir, `clean-discovery.${transport}.modern.snap`)
    expect(existsSync(snap)).toBe(true)
    const text = readFileSync(snap, 'utf8')
    expect(text).toMatch(new RegExp(`^# clean-discovery over ${transport}\\.modern`))
    expect(text).toContain('server/discover')
    expect(text).not.toContain('initialize')
  })

  it('starts the fixture at the run era: a legacy-only client is not judged at a modern-only fixture', async () => {
    const result = await runScenario(loaded, 'stdio', driverAdapter(V1), { updateSnapshots: false, era: 'modern' })
    // The matrix's "Legacy client, modern server: Fails": initialize refused, no tools. A legacy
    // client is allowed (basic/versioning), so the run says why it judges nothing.
    expect(result.transcript?.text).toContain('-32022')
    expect(result.checks.map((c) => `${c.id}=${c.status}`)).toEqual(['applies/scenario=skip'])
    expect(result.checks[0]!.message).toMatch(/spoke only the legacy era/)
  })
})
