/** Pure: the verdict on the pages of the modern lists past the first (./page-rules.ts). */
import type { CheckResult } from '../../model.ts'
import { isObject, list, show } from '../check.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import { PAGES } from './page-rules.ts'

/** One page past the first: the cursor it was asked with, and the answer. */
export interface FollowedPage {
  cursor: string
  outcome: RpcOutcome
}

/** The chain of one list: its first page (from modern/lists), the pages followed, and why following stopped. */
export interface PageChain {
  method: string
  first: RpcOutcome
  pages: FollowedPage[]
  /** 'cap': the kit stopped after as many pages as it follows; 'repeated': a cursor came back. */
  stop: 'end' | 'cap' | 'repeated' | 'failed'
  /** With stop 'repeated': the cursor that came back. */
  again?: string
}

const scopeOf = (outcome: RpcOutcome): unknown => (outcome.kind === 'result' && isObject(outcome.result) ? outcome.result.cacheScope : undefined)

function judgeChain(j: ReturnType<typeof modernJudge>, chain: PageChain): CheckResult | string {
  const scope = scopeOf(chain.first)
  for (const [i, page] of chain.pages.entries()) {
    const what = `${chain.method} page ${i + 2} (cursor ${show(page.cursor, 40)})`
    const { outcome } = page
    if (outcome.kind === 'timeout' || outcome.kind === 'closed') return j.breach(`${what} got ${describeOutcome(outcome)}`, { wire: outcome.wire }, 'reply')
    if (outcome.kind !== 'result') return j.breach(`${what} got ${describeOutcome(outcome)}: the server refused a cursor it issued itself`, { wire: outcome.wire }, 'stable')
    // A page without cacheScope lacks its hints: modern/lists judges that of the first; a page past it is judged here only when it has one.
    const found = scopeOf(outcome)
    if (found !== undefined && found !== scope) return j.breach(`${what} has cacheScope ${show(found, 30)}, the first page ${show(scope, 30)}`, { wire: outcome.wire }, 'scope')
  }
  if (chain.stop === 'repeated') return j.breach(`${chain.method} returned the cursor ${show(chain.again, 40)} again after ${chain.pages.length + 1} pages: a loop, so the listing never ends`, { wire: chain.pages.at(-1)?.outcome.wire }, 'stable')
  const pages = `${chain.method}: ${chain.pages.length + 1} pages, cacheScope ${show(scope, 30)} on each`
  return chain.stop === 'cap' ? `${pages} as far as the kit follows (${chain.pages.length + 1} pages)` : pages
}

export function judgePages(chains: PageChain[]): CheckResult {
  const j = modernJudge(PAGES)
  const paged = chains.filter((c) => c.pages.length > 0)
  if (paged.length === 0) return j.skip(`Not testable: ${chains.length ? `${list(chains.map((c) => c.method))} fit${chains.length === 1 ? 's' : ''} one page` : 'no list was declared'}; no page past the first to judge`)
  const judged: string[] = []
  for (const chain of paged) {
    const verdict = judgeChain(j, chain)
    if (typeof verdict !== 'string') return verdict
    judged.push(verdict)
  }
  return j.pass(judged.join('; '))
}
