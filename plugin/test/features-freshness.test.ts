import { describe, expect, it } from 'vitest'
import { freshForMs, MAX_TTL_MS } from '../src/features/freshness.ts'

/** How long a held list is served, from the 2026-07-28 caching rules (server/utilities/caching). */
describe('freshForMs', () => {
  it('honours a positive ttlMs, capped at a day', () => {
    expect(freshForMs(30_000, false)).toBe(30_000)
    expect(freshForMs(30_000, true)).toBe(30_000)
    expect(freshForMs(MAX_TTL_MS * 10, false)).toBe(MAX_TTL_MS)
  })

  it('treats 0 and a negative ttlMs as immediately stale, even with listChanged declared', () => {
    expect(freshForMs(0, true)).toBe(0)
    expect(freshForMs(-5, true)).toBe(0)
  })

  it('without a usable ttlMs, holds the list until list_changed only when the server declared it', () => {
    expect(freshForMs(undefined, true)).toBe(Number.POSITIVE_INFINITY)
    expect(freshForMs('60000', true)).toBe(Number.POSITIVE_INFINITY)
    expect(freshForMs(undefined, false)).toBe(0)
    expect(freshForMs(Number.NaN, false)).toBe(0)
  })
})
