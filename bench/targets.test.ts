/**
 * The benchmark's own bookkeeping: a declared target that was not measured is a failure shown in
 * the table, never a silent gap (targets.ts); the kit's two client runs are compared place by place.
 */
import { describe, expect, it } from 'vitest'
import { differingSuites } from './kit.ts'
import type { Target } from './model.ts'
import { accountTargets } from './targets.ts'

const target = (id: string, holds: boolean | null, measured: number | null = holds === null ? null : 1): Target => ({ id, description: `about ${id}`, measured, limit: 1, unit: 'x', holds })

describe('accountTargets', () => {
  it('keeps every declared target that was measured, held or not, with nothing unmeasured', () => {
    const reported = [target('a', true), target('b', false)]
    expect(accountTargets(['a', 'b'], reported)).toEqual({ targets: reported, unmeasured: [] })
  })

  it('reports a declared target the benchmark never reported, with the benchmark’s failure as the reason', () => {
    const { targets, unmeasured } = accountTargets(['a', 'b'], [target('a', true)], 'taskset: not found')
    expect(targets.map((t) => [t.id, t.holds])).toEqual([
      ['a', true],
      ['b', null],
    ])
    expect(unmeasured).toEqual([{ id: 'b', reason: 'the benchmark failed: taskset: not found' }])
    expect(accountTargets(['a'], []).unmeasured).toEqual([{ id: 'a', reason: 'the benchmark did not report it' }])
  })

  it('counts a target reported undecided (no figure) as not measured', () => {
    expect(accountTargets(['a'], [target('a', null)]).unmeasured).toEqual([{ id: 'a', reason: 'no figure to judge (about a)' }])
    expect(accountTargets(['a'], [target('a', true, null)]).unmeasured.map((u) => u.id)).toEqual(['a'])
  })

  it('flags a reported target the benchmark does not declare', () => {
    const { targets, unmeasured } = accountTargets([], [target('x', true)])
    expect(targets.map((t) => t.id)).toEqual(['x'])
    expect(unmeasured).toEqual([{ id: 'x', reason: 'reported but not declared in the benchmark’s targets' }])
  })
})

describe('differingSuites', () => {
  const serial = ['a [stdio] c1=pass c2=pass', 'a [http] c1=pass', 'b [stdio] c1=warn']
  it('finds none in identical reports', () => expect(differingSuites(serial, [...serial])).toEqual([]))
  it('names a suite whose verdicts differ', () => expect(differingSuites(serial, [serial[0]!, 'a [http] c1=fail', serial[2]!])).toEqual(['a [http]']))
  it('names suites listed in another order, and one only a run has', () => {
    expect(differingSuites(serial, [serial[1]!, serial[0]!, serial[2]!])).toEqual(['a [stdio]', 'a [http]'])
    expect(differingSuites(serial, serial.slice(0, 2))).toEqual(['b [stdio]'])
  })
})
