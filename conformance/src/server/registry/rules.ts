/** Pure: small constructors for registry entries, and the JSON-RPC sentences many checks share. */
import type { Revision, SpecTopic } from '../spec.ts'
import type { Keyword, Rule } from './types.ts'

export type { CheckDef, Rule } from './types.ts'

/** A sentence stated from `from` on (and until `until`, when given as the fifth argument's field). */
export function rule(from: Revision, topic: SpecTopic, keyword: Keyword, quote: string, ruleCase?: string, until?: Revision): Rule {
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
