/**
 * The modern run's cursor chains (./page-rules.ts): each declared list whose first page has a
 * nextCursor is followed to its end, one request per page, each bounded by the run's request
 * timeout and capped in number as a legacy list is.
 */
import { isObject } from '../check.ts'
import { PAGE_CAP } from '../probe/lists.ts'
import type { ModernRevision } from '../spec.ts'
import type { RpcOutcome } from '../wire/types.ts'
import type { PageChain } from './pages.ts'
import { meta } from './request-meta.ts'
import type { Labelled } from './verdicts.ts'

const nextOf = (outcome: RpcOutcome): string | undefined => {
  const next = outcome.kind === 'result' && isObject(outcome.result) ? outcome.result.nextCursor : undefined
  return typeof next === 'string' ? next : undefined
}

type SendPage = (label: string, method: string, params: Record<string, unknown>) => Promise<RpcOutcome>

export async function followPages(lists: Labelled[], revision: ModernRevision, send: SendPage, pageCap = PAGE_CAP): Promise<PageChain[]> {
  const chains: PageChain[] = []
  for (const { label: method, outcome: first } of lists) {
    const chain: PageChain = { method, first, pages: [], stop: 'end' }
    chains.push(chain)
    const seen = new Set<string>()
    let cursor = nextOf(first)
    while (cursor !== undefined) {
      if (seen.has(cursor)) {
        chain.stop = 'repeated'
        chain.again = cursor
        break
      }
      if (chain.pages.length + 1 >= pageCap) {
        chain.stop = 'cap'
        break
      }
      seen.add(cursor)
      const outcome = await send(`${method} page ${chain.pages.length + 2}`, method, { cursor, _meta: meta(revision) })
      chain.pages.push({ cursor, outcome })
      if (outcome.kind !== 'result') {
        chain.stop = 'failed'
        break
      }
      cursor = nextOf(outcome)
    }
  }
  return chains
}
