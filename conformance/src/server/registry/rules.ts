/** Pure: small constructors for registry entries, and the JSON-RPC sentences many checks share. */
import type { Revision } from '../spec.ts'
import type { Topic } from './topics.ts'
import type { Keyword, Rule } from './types.ts'

export type { CheckDef, Rule } from './types.ts'

/** A sentence stated from `from` on (and until `until`, when given as the fifth argument's field). */
export function rule(from: Revision, topic: Topic, keyword: Keyword, quote: string, ruleCase?: string, until?: Revision): Rule {
  return { from, topic, keyword, quote, ...(ruleCase ? { case: ruleCase } : {}), ...(until ? { until } : {}) }
}

/**
 * A request that gets no answer at all: every MCP message follows JSON-RPC 2.0, whose server
 * must reply to every call. Checks that send a request carry this as their `reply` case.
 */
export const REPLY: Rule = rule(
  '2024-11-05',
  'jsonrpc#response-object',
  'MUST',
  'When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.',
  'reply',
)

/**
 * A cursor chain that loops never ends. The spec sets no page limit and states no requirement on
 * nextCursor itself, so the one sentence a loop breaks is the pagination page's server guideline.
 */
export const STABLE_CURSORS: Rule = rule('2024-11-05', 'pagination#implementation-guidelines', 'SHOULD', 'Servers SHOULD: Provide stable cursors')

/** What the three pagination checks (tools, resources, prompts) do. */
export const PAGINATION_HOW =
  'follows nextCursor to the last page; a cursor that comes back is a loop, so the listing never ends. The spec sets no page limit: the kit stops following after 100 pages with a skip that says what it judged'
