import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonByteLength, jsonFitsInBytes, jsonTextLength } from '../src/json-size.ts'

/** Any UTF-16 code unit, lone surrogates and control characters included. */
const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 12 })
const text = fc.oneof(fc.string(), anyText, fc.constantFrom('"', '\\', '\n\t\b\f\r', '\u0001\u001f', '\ud83d\ude00', '\ud83d', '\ude00x\ud800'))
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(-0), fc.constant(1e21), fc.constant(5e-7))
/** JSON values whose strings and keys go through every escape JSON.stringify has. */
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(text, tie('node'), { maxKeys: 4 }),
})).node

describe('jsonTextLength', () => {
  it('is the length of JSON.stringify for every JSON value, escapes and lone surrogates included', () => {
    fc.assert(fc.property(value, (v) => jsonTextLength(v) === JSON.stringify(v).length), { numRuns: 2_000 })
  })

  it('leaves out undefined, functions and symbols in objects, and writes them as null in arrays, like JSON.stringify', () => {
    const v = { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('t'), Number.NaN, Number.POSITIVE_INFINITY], e: {} }
    expect(jsonTextLength(v)).toBe(JSON.stringify(v).length)
  })

  it('says "over the limit" exactly when the text would be longer than the limit', () => {
    fc.assert(
      fc.property(value, fc.nat({ max: 200 }), (v, limit) => jsonTextLength(v, limit) > limit === JSON.stringify(v).length > limit),
      { numRuns: 2_000 },
    )
  })

  it('counts the edges of the surrogate ranges exactly: pairs at both ends, lone halves, and the code units just outside', () => {
    for (const text of ['\ud800\udc00', '\udbff\udfff', '\ud800', '\udbff', '\udc00', '\udfff', '\ud7ff', '\ue000', '\udc00\ud800', 'a\udbff']) {
      expect(jsonTextLength(text), JSON.stringify(text)).toBe(JSON.stringify(text).length)
    }
  })

  it('stops counting once past the limit: a huge object or array costs no more than the limit', () => {
    const object = { type: 'object', properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: 'string' }])) }
    const array = Array.from({ length: 50 }, () => 'x'.repeat(100))
    for (const huge of [object, array]) {
      const counted = jsonTextLength(huge, 100)
      expect(counted).toBeGreaterThan(100)
      expect(counted).toBeLessThan(300)
    }
  })

  it('counts nesting deeper than the call stack allows JSON.stringify', () => {
    let deep: unknown = 'leaf'
    for (let i = 0; i < 200_000; i++) deep = [deep]
    expect(() => JSON.stringify(deep)).toThrow(RangeError)
    expect(jsonTextLength(deep)).toBe(200_000 * 2 + 6)
  })
})

describe('jsonByteLength and jsonFitsInBytes: the UTF-8 size of a result, never stringified', () => {
  const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v))

  it('is the UTF-8 byte length of JSON.stringify for every JSON value, escapes, pairs and lone surrogates included', () => {
    fc.assert(fc.property(value, (v) => jsonByteLength(v) === bytes(v)), { numRuns: 2_000 })
    for (const text of ['é', '€', '\ud83d\ude00', '\ud800', '\udfff', '\u0000', '\u007f', '\u0080', '\u07ff', '\u0800', '\uffff']) {
      expect(jsonByteLength({ text }), JSON.stringify(text)).toBe(bytes({ text }))
    }
  })

  it('says "fits" exactly when the UTF-8 text is no longer than the limit, on either side of the shortcut', () => {
    fc.assert(
      fc.property(value, fc.nat({ max: 400 }), (v, limit) => jsonFitsInBytes(v, limit) === bytes(v) <= limit && jsonByteLength(v, limit) > limit === bytes(v) > limit),
      { numRuns: 2_000 },
    )
    // Controls and lone surrogates take 6 bytes per code unit: the bound must cover them exactly.
    for (const text of ['\u0001'.repeat(50), '\ud800'.repeat(50), '"'.repeat(50), 'x'.repeat(50)]) {
      const size = bytes({ text })
      expect([jsonFitsInBytes({ text }, size), jsonFitsInBytes({ text }, size - 1)], JSON.stringify(text.slice(0, 2))).toEqual([true, false])
    }
  })

  it('decides a 10 MiB text below, above and without a limit', () => {
    // A string of 10 MiB that is not read: its characters would cost far more than its length.
    const big = { content: [{ type: 'text', text: 'x'.repeat(10 * 1024 * 1024) }] }
    expect(jsonFitsInBytes(big, 64 * 1024 * 1024)).toBe(true)
    expect(jsonFitsInBytes(big, 1024)).toBe(false)
    expect(jsonFitsInBytes(big, Number.POSITIVE_INFINITY)).toBe(true)
  })
})
