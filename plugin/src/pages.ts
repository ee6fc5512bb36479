import type { LimitsConfig } from './config.ts'
import { BridgeError, type BridgeErrorCode } from './errors.ts'

/** What one list method's pages are: its name, the result key that holds the items, and the error a bad chain is. */
export interface PagedList {
  method: string
  key: string
  /** The noun of limits.maxTools' message ("tools", "resources"). */
  noun: string
  code: BridgeErrorCode
}

/**
 * Follows a cursor chain to its end, refusing chains that repeat or never end (limits.maxPages)
 * and lists longer than limits.maxTools items. Every cursor goes back exactly as the server gave
 * it: "Clients MUST treat cursors as opaque tokens" (MCP 2025-11-25 §server/utilities/pagination).
 */
export async function drainPages(
  list: PagedList,
  listPage: (cursor: string | undefined) => Promise<object>,
  limits: Pick<LimitsConfig, 'maxPages' | 'maxTools'>,
): Promise<unknown[]> {
  const invalid = (message: string) => new BridgeError(message, list.code)
  const items: unknown[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let page = 1; ; page++) {
    const result = (await listPage(cursor)) as Record<string, unknown>
    const found = result[list.key]
    if (!Array.isArray(found)) throw invalid(`${list.method} result has no "${list.key}" array`)
    items.push(...(found as unknown[]))
    if (items.length > limits.maxTools) throw invalid(`server lists more than limits.maxTools (${limits.maxTools}) ${list.noun}`)
    const next = result.nextCursor
    if (next === undefined || next === null || next === '') return items
    if (typeof next !== 'string') throw invalid(`${list.method} returned a nextCursor that is not a string`)
    if (seen.has(next)) throw invalid(`${list.method} returned cursor "${next.slice(0, 80)}" twice: the pagination never ends`)
    if (page >= limits.maxPages) throw invalid(`${list.method} pagination exceeded limits.maxPages (${limits.maxPages})`)
    seen.add(next)
    cursor = next
  }
}
