import { describe, expect, it } from 'vitest'
import { jsonEqual } from '../src/json-equal.ts'

/** What the harness' ToolRuntime hands finalizeContent: a deep, frozen copy. */
function frozenCopy<T>(value: T): T {
  const copy = structuredClone(value) as unknown
  const freeze = (v: unknown): void => {
    if (typeof v === 'object' && v !== null) {
      Object.values(v).forEach(freeze)
      Object.freeze(v)
    }
  }
  freeze(copy)
  return copy as T
}

describe('jsonEqual', () => {
  const value = { content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'iVBOR', mimeType: 'image/png' }], structuredContent: { n: [1, null, true] } }

  it('holds for a frozen deep copy, whatever its prototypes and key order', () => {
    expect(jsonEqual(frozenCopy(value), value)).toBe(true)
    expect(jsonEqual(Object.assign(Object.create(null), { b: 1, a: [2] }), { a: [2], b: 1 })).toBe(true)
    expect(jsonEqual({ a: 1, gone: undefined }, { a: 1 })).toBe(true)
  })

  it.each<[unknown, string]>([
    [{ ...value, structuredContent: { n: [1, null, false] } }, 'a changed leaf'],
    [{ content: value.content }, 'a dropped member'],
    [{ ...value, extra: 0 }, 'an added member'],
    [{ ...value, content: [...value.content].reverse() }, 'reordered items'],
    [{ ...value, content: { 0: value.content[0], 1: value.content[1] } }, 'an object in place of an array'],
  ])('fails for %#: %s', (other: unknown) => {
    expect(jsonEqual(other, value)).toBe(false)
    expect(jsonEqual(value, other)).toBe(false)
  })

  it('compares primitives as JSON does', () => {
    expect(jsonEqual('1', 1)).toBe(false)
    expect(jsonEqual(null, {})).toBe(false)
    expect(jsonEqual(0, -0)).toBe(true)
  })
})
