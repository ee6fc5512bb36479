import { describe, expect, it } from 'vitest'
import { changedPaths, deepEqual, diffEntries, type Plan } from '../src/loader/diff.ts'
import type { Entry } from '../src/loader/types.ts'

const entry = (id: string, config: Record<string, unknown> = {}, extra: Partial<Entry> = {}): Entry => ({
  id,
  name: 'mcp-client',
  key: '@mcp-bridge/plugin',
  config: { serverName: id, ...config },
  disabled: false,
  ...extra,
})

/** The plan as ids, which is what the assertions care about. */
function ids(plan: Plan) {
  return {
    add: plan.add.map((e) => e.id),
    update: plan.update.map((c) => `${c.id}:${c.kind}${c.changed.length ? `(${c.changed.join(',')})` : ''}`),
    remove: plan.remove.map((e) => e.id),
    unchanged: plan.unchanged.map((e) => e.id),
    kept: plan.kept.map((e) => e.id),
  }
}

describe('diffEntries', () => {
  const a = entry('a')
  const b = entry('b', { toolCallTimeoutMs: 60_000 })

  it('loads everything on the first load', () => {
    expect(ids(diffEntries([], [a, b]))).toEqual({ add: ['a', 'b'], update: [], remove: [], unchanged: [], kept: [] })
  })

  it('touches nothing when nothing changed (key order in configs does not matter)', () => {
    const reordered = entry('b', {}, { config: { toolCallTimeoutMs: 60_000, serverName: 'b' } })
    expect(ids(diffEntries([a, b], [reordered, a]))).toMatchObject({ add: [], update: [], remove: [], unchanged: ['b', 'a'] })
  })

  it('updates an entry whose config changed, naming the changed fields', () => {
    const changed = entry('b', { toolCallTimeoutMs: 5_000, env: { X: '1' } })
    expect(ids(diffEntries([a, b], [a, changed]))).toEqual({
      add: [],
      update: ['b:update(env,toolCallTimeoutMs)'],
      remove: [],
      unchanged: ['a'],
      kept: [],
    })
  })

  it('replaces an entry whose plugin changed', () => {
    const other = { ...b, name: './other.ts', key: '/srv/other.ts' }
    expect(ids(diffEntries([a, b], [a, other])).update).toEqual(['b:replace(name)'])
  })

  it('an alias and the package name are the same plugin', () => {
    expect(ids(diffEntries([a], [{ ...a, name: '@mcp-bridge/plugin' }])).unchanged).toEqual(['a'])
  })

  it('treats a renamed id as a removal plus an addition', () => {
    const renamed = { ...b, id: 'b2' }
    expect(ids(diffEntries([a, b], [a, renamed]))).toEqual({ add: ['b2'], update: [], remove: ['b'], unchanged: ['a'], kept: [] })
  })

  it('removes entries that are gone or disabled, and adds re-enabled ones', () => {
    expect(ids(diffEntries([a, b], [a]))).toMatchObject({ remove: ['b'], unchanged: ['a'] })
    expect(ids(diffEntries([a, b], [a, { ...b, disabled: true }]))).toMatchObject({ remove: ['b'], unchanged: ['a'] })
    expect(ids(diffEntries([a], [a, b]))).toMatchObject({ add: ['b'], unchanged: ['a'] })
  })

  it('keeps a running entry whose new version has errors', () => {
    expect(ids(diffEntries([a, b], [a], { held: new Set(['b']) }))).toMatchObject({ remove: [], kept: ['b'], unchanged: ['a'] })
  })

  it('keeps missing entries when asked to, but still honours an explicit disable', () => {
    const plan = diffEntries([a, b, entry('c')], [{ ...a, disabled: true }], { keepMissing: true })
    expect(ids(plan)).toMatchObject({ remove: ['a'], kept: ['b', 'c'] })
  })

  it('retries an unchanged entry whose last start failed', () => {
    expect(ids(diffEntries([a, b], [a, b], { retry: new Set(['b']) })).update).toEqual(['b:retry'])
  })
})

describe('deepEqual and changedPaths', () => {
  it('compares JSON-like values structurally', () => {
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true)
    expect(deepEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false)
    expect(deepEqual({ a: undefined }, {})).toBe(false)
    expect(deepEqual([], {})).toBe(false)
  })

  it('reports dotted paths, arrays as one value, and never values', () => {
    expect(changedPaths({ a: 1, h: { x: 's1', y: 2 }, l: [1] }, { a: 1, h: { x: 's2', y: 2 }, l: [1, 2], n: true })).toEqual([
      'h.x',
      'l',
      'n',
    ])
    expect(changedPaths(1, 2)).toEqual(['(config)'])
  })
})
