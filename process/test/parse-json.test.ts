import { describe, expect, it } from 'vitest'
import { parseJson } from '../src/index.ts'

describe('parseJson', () => {
  it('parses JSON text, null and scalars included', () => {
    expect(parseJson('{"id":7,"result":[1]}')).toEqual({ id: 7, result: [1] })
    expect(parseJson('null')).toBeNull()
    expect(parseJson(' 3 ')).toBe(3)
  })

  it('gives undefined, never a throw, for text that is not JSON or a value that is not text', () => {
    for (const text of ['', '{"id":', 'stray output', undefined, 42, { a: 1 }]) expect(parseJson(text)).toBeUndefined()
  })
})
