import { prng, randomHex } from './prng.ts'
import type { PaginationSpec } from './schema.ts'

export interface Page<T> {
  items: T[]
  nextCursor?: string
}

export type PageResult<T> = { ok: true; page: Page<T> } | { ok: false; message: string }

/** Cursors are opaque to the client but decodable here: a seeded prefix plus the page number. */
export function cursorCodec(seed: number): { encode(page: number): string; decode(cursor: string): number | undefined } {
  const prefix = `c${randomHex(prng(seed, 0xc0), 8)}.`
  return {
    encode: (page) => `${prefix}${page}`,
    decode(cursor) {
      if (!cursor.startsWith(prefix)) return undefined
      const page = Number(cursor.slice(prefix.length))
      return Number.isSafeInteger(page) && page >= 2 ? page : undefined
    },
  }
}

/**
 * One tools/list page. Page 1 is the request without a cursor. Unknown cursors and the scripted
 * failing page are errors (the caller answers -32602); `repeat` hands back the same cursor forever;
 * `cycle` goes round from the last page back to the second, forever.
 */
export function paginate<T>(items: readonly T[], spec: PaginationSpec | undefined, cursor: string | undefined, seed: number): PageResult<T> {
  if (!spec) return cursor === undefined ? { ok: true, page: { items: [...items] } } : { ok: false, message: 'Invalid cursor' }
  const codec = cursorCodec(seed)
  const page = cursor === undefined ? 1 : codec.decode(cursor)
  const realPages = Math.max(1, Math.ceil(items.length / spec.pageSize))
  const total = realPages + spec.emptyPages
  const endless = spec.cursor === 'repeat'
  if (page === undefined || (!endless && page > total) || page === spec.failPage) return { ok: false, message: 'Invalid cursor' }
  const slice = items.slice((page - 1) * spec.pageSize, page * spec.pageSize)
  if (endless) return { ok: true, page: { items: slice, nextCursor: codec.encode(Math.max(page, 2)) } }
  // A cycle: the last page points back to the second, so no cursor ever equals the one just sent.
  if (spec.cursor === 'cycle' && page === total) return { ok: true, page: { items: slice, nextCursor: codec.encode(2) } }
  return { ok: true, page: page < total ? { items: slice, nextCursor: codec.encode(page + 1) } : { items: slice } }
}
