/**
 * Pure: which check judges which keyword sentence of a revision, and the coverage that follows.
 * A sentence is judged by a check when one of the check's rules in force in that revision quotes
 * it (found by wording, on the page the rule cites), or when the sentence's own `checks` name the
 * check; otherwise its `reason` says why not (reasons.ts).
 */
import type { Revision } from '../../spec.ts'
import { topicPath, type Topic } from '../topics.ts'
import type { CheckDef, Rule } from '../types.ts'
import { inForce } from '../types.ts'
import { isReason, REASONS, type ReasonKey } from './reasons.ts'
import type { Sentence, SentenceFile } from './types.ts'

/** `page#anchor` of a rule's topic ('' for no page); the modern registry resolves its own topics. */
export type PathOf = (topic: string) => string

/** Topics that are not a page of the spec: the schema, JSON-RPC 2.0, the bridge's own rules. */
function pageOf(topic: string, pathOf: PathOf): string | undefined {
  const path = pathOf(topic)
  if (!path) return undefined
  const page = path.split('#')[0]!
  return page === 'basic' ? 'basic/index' : page
}

/** Wording for comparison: typographic quotes straightened, whitespace collapsed, no end stop. */
export function normalise(text: string): string {
  return text
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.:;,]+$/, '')
}

/**
 * The pieces a quote is made of: the registry elides with "…", joins the items of a list with
 * "; " and quotes consecutive sentences of one passage, so each piece is looked up on its own.
 */
function pieces(quote: string): string[] {
  return quote
    .split('…')
    .flatMap((part) => part.split('; '))
    .flatMap((part) => part.split(/(?<=[.])\s+(?=[A-Z])/))
    .map(normalise)
    .filter((piece) => piece.length > 0)
}

const KEYWORD = /\b(MUST|SHOULD|REQUIRED|SHALL|RECOMMENDED)\b/

/** Whether a rule's quote is a keyword sentence of a page, which the extract must then hold. */
export function citesKeywordSentence(rule: Rule, pathOf: PathOf = legacyPath): boolean {
  return pageOf(rule.topic, pathOf) !== undefined && KEYWORD.test(rule.quote)
}

/** The sentences of `file` a rule's quote covers; empty when some piece is found nowhere. */
export function sentencesQuoted(rule: Rule, file: SentenceFile, pathOf: PathOf = legacyPath): Sentence[] {
  const page = pageOf(rule.topic, pathOf)
  if (!page) return []
  const onPage = file.sentences.filter((s) => s.page === page)
  const found = new Set<Sentence>()
  let previous: Sentence | undefined
  for (const piece of pieces(rule.quote)) {
    let hits = onPage.filter((s) => normalise(`${s.lead ?? ''} ${s.text}`).includes(piece))
    // A piece without a keyword is context the extract need not hold ("MCP uses JSON-RPC …").
    if (hits.length === 0 && !KEYWORD.test(piece)) continue
    if (hits.length === 0) return []
    // Wording a page repeats ("On HTTP, the response status MUST be 400") is the one right after the quote's previous sentence.
    const next = previous ? onPage[onPage.indexOf(previous) + 1] : undefined
    if (hits.length > 1 && next && hits.includes(next)) hits = [next]
    // A piece too short to be a sentence of its own (an elided lead such as "inputSchema:") only locates.
    if (KEYWORD.test(piece) || hits.length === 1) hits.forEach((s) => found.add(s))
    if (hits.length === 1) previous = hits[0]
  }
  return [...found]
}

export interface Coverage {
  revision: string
  /** Keyword sentences that bind the server. */
  sentences: number
  judged: number
  notJudgeable: Partial<Record<ReasonKey, number>>
  notYet: number
  /** Not judged, and not yet classified either way (reasons.ts `unreviewed`). */
  unreviewed: number
  /** Server-binding sentences with neither a check nor a reason. */
  unaccounted: Sentence[]
  /** Sentences given a reason although a check judges them. */
  contradicted: Sentence[]
  /** Rules in force that quote a keyword sentence of a page the extract does not hold. */
  missingQuotes: { check: string; quote: string }[]
  /** Hand-kept `checks` naming no check the registry knows. */
  unknownChecks: { sentence: string; check: string }[]
  /** Sentence id → the checks that judge it. */
  judgedBy: Map<string, string[]>
}

/** The legacy registry's topics: the spec's sections and the tasks utility's. */
const legacyPath: PathOf = (topic) => topicPath(topic as Topic)

export function coverage(file: SentenceFile, checks: readonly CheckDef[], pathOf: PathOf = legacyPath): Coverage {
  const revision = file.revision as Revision
  const judgedBy = new Map<string, string[]>()
  const add = (id: string, check: string) => {
    const list = judgedBy.get(id) ?? []
    if (!list.includes(check)) list.push(check)
    judgedBy.set(id, list)
  }
  const missingQuotes: Coverage['missingQuotes'] = []
  for (const def of checks) {
    for (const rule of def.rules) {
      if (!inForce(rule, revision) || !citesKeywordSentence(rule, pathOf)) continue
      const quoted = sentencesQuoted(rule, file, pathOf)
      if (quoted.length === 0) missingQuotes.push({ check: def.id, quote: rule.quote })
      for (const s of quoted) add(s.id, def.id)
    }
  }
  const known = new Set(checks.map((def) => def.id))
  const unknownChecks: Coverage['unknownChecks'] = []
  for (const s of file.sentences) {
    for (const check of s.checks ?? []) {
      if (known.has(check)) add(s.id, check)
      else unknownChecks.push({ sentence: s.id, check })
    }
  }
  const bound = file.sentences.filter((s) => s.binds)
  const notJudgeable: Coverage['notJudgeable'] = {}
  let judged = 0
  let notYet = 0
  let unreviewed = 0
  const unaccounted: Sentence[] = []
  const contradicted: Sentence[] = []
  for (const s of bound) {
    const by = judgedBy.get(s.id)
    if (by && s.reason) contradicted.push(s)
    if (by) judged++
    else if (isReason(s.reason) && REASONS[s.reason].kind === 'not yet judged') notYet++
    else if (isReason(s.reason) && REASONS[s.reason].kind === 'not yet reviewed') unreviewed++
    else if (isReason(s.reason)) notJudgeable[s.reason] = (notJudgeable[s.reason] ?? 0) + 1
    else unaccounted.push(s)
  }
  return { revision, sentences: bound.length, judged, notJudgeable, notYet, unreviewed, unaccounted, contradicted, missingQuotes, unknownChecks, judgedBy }
}
