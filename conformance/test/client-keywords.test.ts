import type { HttpEntry, WireEntry } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { checkHttpInvariants } from '../src/client/http-invariants.ts'
import { checkInvariants } from '../src/client/invariants.ts'
import { loadScenarios } from '../src/client/load.ts'
import { checkPings } from '../src/client/ping.ts'
import { checkShutdown } from '../src/client/processes.ts'
import { ScenarioSchema, type Scenario } from '../src/client/scenario.ts'
import { verdictsFor } from '../src/client/verdicts.ts'
import type { CheckResult, SpecRef } from '../src/model.ts'

// The class of defect: a client verdict whose status is not what its sentence's keyword says
// (MUST → fail, SHOULD → warn, no keyword or MAY → information), or that cites a revision other
// than the one the client negotiated. Judged here on every verdict the kit's own rules can give a
// non-bridge client, and on every keyword a scenario records for clients.

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const

/** The strongest RFC 2119 keyword in a text. */
function strongest(text: string): 'MUST' | 'SHOULD' | 'MAY' | 'NONE' {
  if (/\b(MUST|REQUIRED|SHALL)\b/.test(text)) return 'MUST'
  if (/\b(SHOULD|RECOMMENDED)\b/.test(text)) return 'SHOULD'
  if (/\b(MAY|OPTIONAL)\b/.test(text)) return 'MAY'
  return 'NONE'
}

/** The words a citation quotes: its `quote`, else what its text holds in double quotes. */
function quoted(spec: SpecRef | string | undefined): string {
  if (spec === undefined) return ''
  if (typeof spec !== 'string' && spec.quote) return spec.quote
  const text = typeof spec === 'string' ? spec : spec.ref
  return [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]).join(' ')
}

const recv = (msg: object): WireEntry => ({ dir: 'recv', msg: { jsonrpc: '2.0', ...msg } as WireEntry['msg'] })
const send = (msg: object): WireEntry => ({ dir: 'send', msg: { jsonrpc: '2.0', ...msg } as WireEntry['msg'] })

/** A session on `revision` in which the client breaks every rule the kit judges from the wire. */
function faultyWire(revision: string): WireEntry[] {
  return [
    recv({ id: 0, method: 'tools/list' }), // before initialize (MUST)
    recv({ id: 1, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    recv({ id: 2, method: 'tools/list' }), // before the initialize answer (SHOULD NOT)
    send({ id: 1, result: { protocolVersion: revision, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }),
    recv({ method: 'notifications/initialized' }),
    send({ id: 2, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } }),
    recv({ id: 3, method: 'tools/call', params: { name: 'mcp__s__echo', arguments: {} } }), // a name never listed
    recv({ id: 4, method: 'tools/call', params: { name: 'echo', arguments: {}, task: {} } }),
    recv({ method: 'notifications/cancelled', params: { requestId: 4 } }), // a task-augmented request (2025-11-25: MUST use tasks/cancel)
    recv({ method: 'notifications/cancelled', params: { requestId: 1 } }), // initialize (MUST NOT)
    recv({ id: 4, method: 'tools/list' }), // reused id (MUST NOT)
    send({ id: 's1', method: 'ping' }), // never answered (MUST)
  ]
}

const http = (request: Partial<HttpEntry['http']>): HttpEntry['http'] => ({ method: 'POST', path: '/mcp', status: 200, ...request })

/** HTTP requests without Accept, a session header, the protocol version header, and no DELETE. */
const FAULTY_HTTP: Array<HttpEntry['http']> = [
  http({ rpc: 'initialize', newSession: 'S1' }),
  http({ rpc: 'notifications/initialized', session: 'S1', accept: 'application/json' }),
  http({ rpc: 'tools/list', session: 'S1' }),
  http({ rpc: 'tools/call' }),
]

const SCENARIO: Scenario = ScenarioSchema.parse({ id: 'keywords', title: 'keywords', spec: [{ ref: 'none' }], server: { tools: [] } })

function verdicts(revision: string, kind: 'bridge' | 'client'): CheckResult[] {
  const wire = faultyWire(revision)
  const checks = [
    ...checkInvariants({ snapshots: [], wire, afterDispose: [], orphans: [4242], processes: 1 }),
    ...checkPings(wire),
    ...checkHttpInvariants(FAULTY_HTTP, { negotiated: [revision] }),
    (checkShutdown as (...args: unknown[]) => CheckResult)(['eof'], { servers: [4242], children: [], events: [] }, [4242], revision),
  ]
  // verdicts.ts is the one place client verdicts are made (the negotiated revision is the run's).
  return (verdictsFor as (...args: unknown[]) => CheckResult[])(SCENARIO, kind, checks, revision)
}

describe('a non-bridge client is failed only for a MUST, warned only for a SHOULD, of the revision it negotiated', () => {
  for (const revision of REVISIONS) {
    it(`every fail and warn on ${revision} quotes a sentence whose keyword is that force, on that revision's page`, () => {
      const judged = verdicts(revision, 'client').filter((v) => v.status === 'fail' || v.status === 'warn')
      expect(judged.length).toBeGreaterThan(3)
      const wrong = judged.flatMap((v) => {
        const words = quoted(v.spec)
        const want = v.status === 'fail' ? 'MUST' : 'SHOULD'
        const problems = []
        if (strongest(words) !== want) problems.push(`${v.id} is a ${v.status}, but quotes ${JSON.stringify(words || v.spec?.ref)} (${strongest(words)})`)
        if (v.spec?.url?.includes('/specification/') && !v.spec.url.includes(`/specification/${revision}/`)) problems.push(`${v.id} cites ${v.spec.url} for a client on ${revision}`)
        if (/MCP \d{4}-\d\d-\d\d/.test(v.spec?.ref ?? '') && !v.spec!.ref.includes(`MCP ${revision}`)) problems.push(`${v.id} cites ${v.spec!.ref.slice(0, 40)} for a client on ${revision}`)
        return problems
      })
      expect(wrong).toEqual([])
    })
  }

  it('rules a revision does not state are not judged: no Accept or Mcp-Session-Id verdict on 2024-11-05, no tasks/cancel verdict before 2025-11-25', () => {
    const old = verdicts('2024-11-05', 'client')
    expect(old.find((v) => v.id === 'invariant/http-accept')?.status).toBe('skip')
    expect(old.find((v) => v.id === 'invariant/http-session-header')?.status).toBe('skip')
    expect(old.find((v) => v.id === 'invariant/http-session-delete')?.status).toBe('skip')
    for (const revision of ['2025-03-26', '2025-06-18']) expect(verdicts(revision, 'client').find((v) => v.id === 'invariant/cancellation')?.message ?? '').not.toMatch(/task-augmented/)
    expect(verdicts('2025-11-25', 'client').find((v) => v.id === 'invariant/cancellation')?.message).toMatch(/task-augmented/)
  })

  it('a bridge that fails a rule that is less than a MUST of the spec is failed by its own rule, keyword BRIDGE', () => {
    const failed = verdicts('2025-11-25', 'bridge').filter((v) => v.status === 'fail')
    expect(failed.map((v) => v.id)).toEqual(expect.arrayContaining(['invariant/no-orphans', 'expect/shutdown', 'invariant/raw-names-on-wire']))
    const wrong = failed.filter((v) => v.spec?.keyword !== 'BRIDGE' && strongest(quoted(v.spec)) !== 'MUST').map((v) => `${v.id}: ${v.spec?.ref}`)
    expect(wrong).toEqual([])
    for (const v of failed.filter((f) => f.spec?.keyword === 'BRIDGE')) expect(v.spec!.ref).toMatch(/BRIDGE: the bridge's own rule, not the spec/)
  })
})

describe('what scenarios record for clients matches the keyword of the sentence they quote', () => {
  const scenarios = loadScenarios().map((l) => l.scenario).filter((s) => s.applies.to !== 'bridge')

  it('every applies.should quotes a SHOULD; every applies.info quotes no MUST or SHOULD', () => {
    const wrong: string[] = []
    for (const s of scenarios) {
      for (const [id, entry] of Object.entries(s.applies.should)) {
        const sentence = typeof entry === 'string' ? entry : (entry as { sentence: string }).sentence
        if (strongest(quoted(sentence)) !== 'SHOULD') wrong.push(`${s.id} should ${id}: ${strongest(quoted(sentence))} in ${sentence.slice(0, 120)}`)
      }
      for (const [id, sentence] of Object.entries((s.applies as { info?: Record<string, string> }).info ?? {})) {
        if (['MUST', 'SHOULD'].includes(strongest(quoted(sentence)))) wrong.push(`${s.id} info ${id}: ${strongest(quoted(sentence))} in ${sentence.slice(0, 120)}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('every check a scenario can fail a client on is a fail only under a quoted MUST, a warn only under a SHOULD, else information', () => {
    const wrong: string[] = []
    let judged = 0
    for (const s of scenarios) {
      const ids = ['expect/tools', 'expect/settled', 'timing/start', 'timing/dispose', ...Object.keys(s.expect.received).map((m) => `expect/received/${m}`), ...s.steps.flatMap((step, i) => ['call' in step ? [`expect/call-${s.steps.slice(0, i + 1).filter((x) => 'call' in x).length}`] : [], [`timing/step-${i + 1}`]].flat())]
      for (const id of ids) {
        for (const status of ['fail', 'warn'] as const) {
          const [verdict] = verdictsFor(s, 'client', [{ id, title: id, status, message: 'breached', spec: s.spec[0] }])
          if (verdict!.status === 'fail' || verdict!.status === 'warn') judged++
          const should = s.applies.should[id]
          const words = verdict!.status === 'warn' && should !== undefined ? quoted(typeof should === 'string' ? should : should.sentence) : quoted(verdict!.spec)
          if (verdict!.status === 'fail' && strongest(words) !== 'MUST') wrong.push(`${s.id} ${id} fails a client citing ${JSON.stringify(s.spec[0]!.ref.slice(0, 100))}, which quotes no MUST`)
          if (verdict!.status === 'warn' && !['MUST', 'SHOULD'].includes(strongest(words))) wrong.push(`${s.id} ${id} warns a client citing no SHOULD`)
          if (verdict!.status === 'skip' && !/^(Information \(no requirement for clients\)|not applicable)/.test(verdict!.message)) wrong.push(`${s.id} ${id}: a skip that does not say why: ${verdict!.message}`)
        }
      }
    }
    expect(wrong).toEqual([])
    expect(judged).toBeGreaterThan(10)
  })
})

describe('a check a scenario lists under applies.unsteady', () => {
  const scenario = ScenarioSchema.parse({ ...SCENARIO, applies: { unsteady: { 'invariant/handshake': 'the fixture may not have started' } } }) as Scenario
  const spec: SpecRef = { ref: 'MCP 2025-11-25 §basic/lifecycle: "The initialization phase MUST be the first interaction between client and server."', keyword: 'MUST', quote: 'The initialization phase MUST be the first interaction between client and server.' }
  const judge = (kind: 'bridge' | 'client', status: CheckResult['status'], message: string) =>
    verdictsFor(scenario, kind, [{ id: 'invariant/handshake', title: 'handshake', status, message, spec }])[0]!

  it('reads the same whether its evidence arrived or not: a pass and a skip are one skip with the reason', () => {
    for (const kind of ['bridge', 'client'] as const) {
      const seen = judge(kind, 'pass', '1 handshakes, each in order')
      const unseen = judge(kind, 'skip', 'nothing to judge: the server received no request')
      expect(seen).toEqual(unseen)
      expect(seen).toMatchObject({ status: 'skip', message: 'not judged in this scenario: the fixture may not have started' })
    }
  })

  it('still fails what was seen to be wrong', () => {
    expect(judge('client', 'fail', 'tools/list was sent before initialize').status).toBe('fail')
    expect(judge('bridge', 'fail', 'tools/list was sent before initialize').status).toBe('fail')
  })
})
