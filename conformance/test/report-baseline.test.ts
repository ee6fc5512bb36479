/** Baseline parsing, expected failures, stale entries and the exit code they imply. */
import { describe, expect, it } from 'vitest'
import { applyBaseline, parseBaseline } from '../src/baseline.ts'
import type { CheckStatus, SuiteResult } from '../src/model.ts'
import { assembleReport, exitCodeOf, harnessErrorSuite } from '../src/report/assemble.ts'

const suite = (id: string, checks: Record<string, CheckStatus>): SuiteResult => ({
  id,
  title: id,
  kind: 'server',
  target: 't',
  durationMs: 1,
  checks: Object.entries(checks).map(([checkId, status]) => ({ id: checkId, title: checkId, status, message: status })),
})

describe('parseBaseline', () => {
  it('accepts strings and {id, reason} entries, and an empty file', () => {
    const text = 'expectedFailures:\n  - server:tools/a\n  - id: server:http/b\n    reason: known SDK bug\n  - server:tools/a\n'
    expect(parseBaseline(text)).toEqual({ ok: true, entries: [{ id: 'server:tools/a' }, { id: 'server:http/b', reason: 'known SDK bug' }] })
    expect(parseBaseline('')).toEqual({ ok: true, entries: [] })
  })

  it.each([
    ['expectedFailures: nope', '"expectedFailures" must be a list'],
    ['server: []', 'unknown key server'],
    ['expectedFailures:\n  - no-colon', 'is not "<suite id>:<check id>"'],
    ['expectedFailures:\n  - server: tools/a', 'did you mean "server:tools/a"?'],
    ['expectedFailures:\n  - id: server:x\n    why: y', 'unknown key why'],
    ['expectedFailures: [', 'not valid YAML'],
  ])('rejects %j with a helpful message', (text, fragment) => {
    const parsed = parseBaseline(text)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error).toContain(fragment)
  })
})

describe('applyBaseline', () => {
  const suites = [suite('server', { 'tools/a': 'fail', 'tools/b': 'pass', 'tools/c': 'warn', 'tools/d': 'error' })]

  it('marks listed failures as expected, on copies', () => {
    const { suites: marked, stale } = applyBaseline(suites, [{ id: 'server:tools/a' }])
    expect(marked[0]?.checks[0]?.expected).toBe(true)
    expect(suites[0]?.checks[0]?.expected).toBeUndefined()
    expect(stale).toEqual([])
  })

  it('an entry whose check passes, warns or is gone is stale; an error is neither; another suite is not judged', () => {
    const entries = ['server:tools/b', 'server:tools/c', 'server:tools/gone', 'server:tools/d', 'client-x:check'].map((id) => ({ id }))
    expect(applyBaseline(suites, entries).stale).toEqual(['server:tools/b', 'server:tools/c', 'server:tools/gone'])
  })
})

describe('exit codes', () => {
  it.each([
    [{ a: 'pass', b: 'warn', c: 'skip' }, [], [], 0],
    [{ a: 'fail' }, [], [], 1],
    [{ a: 'fail' }, ['server:a'], [], 0],
    [{ a: 'pass' }, ['server:a'], [], 1],
    [{ a: 'fail', b: 'error' }, [], [], 2],
  ] as const)('%j with baseline %j → %i', (checks, baseline, _unused, code) => {
    const report = assembleReport({ suites: [suite('server', checks)], baseline: baseline.map((id) => ({ id })), tool: { name: 't', version: '0' }, startedAt: 'x', durationMs: 0 })
    expect(report.exitCode).toBe(code)
    expect(exitCodeOf(report.suites, report.staleBaseline)).toBe(code)
  })

  it('a runner that threw becomes an error suite, and the run exits 2', () => {
    const errorSuite = harnessErrorSuite('client', 'Client scenarios', 'client', 'plugin', new Error('not built yet'))
    expect(errorSuite.checks).toEqual([{ id: 'harness/run', title: 'Client scenarios ran', status: 'error', message: 'could not run: not built yet' }])
    expect(exitCodeOf([errorSuite], [])).toBe(2)
  })
})

describe('repeated suite ids (one client scenario per transport)', () => {
  it('an entry covers every run: expected where it fails, stale only if it fails nowhere', () => {
    const runs = [suite('scenario-a', { x: 'pass' }), suite('scenario-a', { x: 'fail' })]
    const { suites: marked, stale } = applyBaseline(runs, [{ id: 'scenario-a:x' }])
    expect(stale).toEqual([])
    expect(marked.map((s) => s.checks[0]?.expected)).toEqual([undefined, true])
    expect(applyBaseline([suite('scenario-a', { x: 'pass' }), suite('scenario-a', { x: 'pass' })], [{ id: 'scenario-a:x' }]).stale).toEqual(['scenario-a:x'])
  })
})
