/** Follows a list method's cursor chain to its end, guarding against repeats and endless chains. */
import { isObject } from '../check.ts'
import type { ListKind, ListObservation } from '../evaluate/lists.ts'
import type { Wire } from '../wire/types.ts'

/** More pages than any real server needs; the cap only stops a cursor chain that never ends. */
export const PAGE_CAP = 100

export async function drainList(wire: Wire, kind: ListKind, timeoutMs: number, pageCap = PAGE_CAP): Promise<ListObservation> {
  const obs: ListObservation = { kind, pages: [], items: [], stop: 'end', cursors: [], pageCap }
  const seen = new Set<string>()
  let cursor: string | undefined
  for (;;) {
    const outcome = await wire.request(`${kind}/list`, cursor === undefined ? {} : { cursor }, timeoutMs)
    obs.pages.push(outcome)
    if (outcome.kind !== 'result') return { ...obs, stop: 'failed' }
    const page = outcome.result
    // What is wrong with a page is judged from the page itself (evaluate/lists.ts); here only whether to go on.
    if (!isObject(page) || !Array.isArray(page[kind])) return { ...obs, stop: 'bad-page' }
    obs.items.push(...(page[kind] as unknown[]))
    const next = page.nextCursor
    if (next === undefined || next === null) return obs
    if (typeof next !== 'string') return { ...obs, stop: 'bad-page' }
    obs.cursors.push(next)
    if (seen.has(next)) return { ...obs, stop: 'repeated-cursor' }
    if (obs.pages.length >= pageCap) return { ...obs, stop: 'page-cap' }
    seen.add(next)
    cursor = next
  }
}
