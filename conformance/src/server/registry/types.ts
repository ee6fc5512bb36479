/**
 * Pure: what a check is (its id, what it observes) and the spec sentence it enforces in each
 * revision. The status of a breach is derived from the sentence's own keyword, never chosen by
 * the code that observes the server: MUST → fail, SHOULD → warn, no requirement → information.
 */
import type { CheckStatus, SpecRef } from '../../model.ts'
import { atLeast, KNOWN_REVISIONS, OLDEST_REVISION, type Revision } from '../spec.ts'
import { topicLabel, topicUrl, type Topic } from './topics.ts'

/**
 * The force of a sentence. SCHEMA: a field or type the revision's schema.ts requires (the spec
 * calls the schema "the source of truth for all protocol messages and structures"). NONE: the
 * spec describes the behaviour without requiring it (no keyword, or only MAY); a deviation is
 * reported as information. BRIDGE: not the spec at all but the mcp-bridge plugin's own rule (its
 * design doc), so a breach warns. Every other keyword is the strongest RFC 2119 keyword of the
 * quoted sentence itself (server-rules.test.ts checks that for every rule).
 */
export type Keyword = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'SCHEMA' | 'NONE' | 'BRIDGE'

export interface Rule {
  /** First revision that states the sentence; `until` is the last (absent: still in force). */
  from: Revision
  until?: Revision
  topic: Topic
  keyword: Keyword
  /** The sentence as the spec states it (emphasis markup removed). */
  quote: string
  /** Which outcome of the check this sentence governs, when one check judges more than one. */
  case?: string
}

export interface CheckDef {
  /** Stable `area/what`; `{name}` stands for the tool of a `--call`. */
  id: string
  title: string
  /** server: a verdict on the server. bridge: what a client like ours makes of it; never above warn. */
  scope: 'server' | 'bridge'
  /** What the kit sends or watches, for the docs table. */
  how: string
  rules: Rule[]
  transport?: 'stdio' | 'http'
  /** Anything the docs must say about how the check reads its sentence. */
  note?: string
}

const FAIL: Keyword[] = ['MUST', 'MUST NOT', 'SCHEMA']
// A rule of our own client is worth a warning, never a failure of someone else's server.
const WARN: Keyword[] = ['SHOULD', 'SHOULD NOT', 'BRIDGE']

/** The status a breach of a sentence with `keyword` gets; information is a `skip` that says so. */
export function breachStatus(keyword: Keyword, scope: CheckDef['scope']): CheckStatus {
  if (FAIL.includes(keyword)) return scope === 'bridge' ? 'warn' : 'fail'
  if (WARN.includes(keyword)) return 'warn'
  return 'skip'
}

export function inForce(rule: Rule, revision: string): boolean {
  return atLeast(revision, rule.from) && (rule.until === undefined || !atLeast(revision, nextAfter(rule.until)))
}

function nextAfter(revision: Revision): string {
  const newerFirst = KNOWN_REVISIONS as readonly string[]
  const index = newerFirst.indexOf(revision)
  return index > 0 ? newerFirst[index - 1]! : '9999-99-99'
}

/** The sentence governing `ruleCase` of `def` in `revision`, if the revision has one. */
export function ruleFor(def: CheckDef, revision: string, ruleCase?: string): Rule | undefined {
  return def.rules.find((rule) => rule.case === ruleCase && inForce(rule, revision))
}

/** The first revision in which the check's main sentence exists, for "not part of" messages. */
export function firstRevision(def: CheckDef): Revision {
  const main = def.rules.filter((rule) => rule.case === undefined).map((rule) => rule.from)
  return main.sort()[0] ?? OLDEST_REVISION
}

export function cite(rule: Rule, revision: Revision): SpecRef {
  const url = topicUrl(revision, rule.topic)
  const where = topicLabel(revision, rule.topic)
  const keyword = rule.keyword === 'NONE' ? 'no requirement' : rule.keyword === 'BRIDGE' ? 'the bridge’s own rule, not the spec' : rule.keyword
  return { ref: `${where}: ${keyword}`, ...(url ? { url } : {}), keyword: rule.keyword, quote: rule.quote }
}
