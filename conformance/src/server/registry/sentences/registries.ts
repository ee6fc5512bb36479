/**
 * Pure: which registry judges the sentences of a revision. The initialize-based revisions are
 * judged by ../index.ts; a modern one (2026-07-28) by modern/registry.ts, whose rules cite its
 * own pages, so its checks are read here as rules in force in that revision.
 */
import { MODERN_CHECKS } from '../../modern/registry.ts'
import { modernTopicPath, type AnyModernTopic } from '../../modern/topics.ts'
import { isModernRevision, type Revision } from '../../spec.ts'
import { CHECKS } from '../index.ts'
import type { CheckDef } from '../types.ts'
import { coverage, type Coverage, type PathOf } from './coverage.ts'
import type { SentenceFile } from './types.ts'

/** The modern checks as registry entries: each rule stated in the modern revision, and only there. */
function modernDefs(revision: string): CheckDef[] {
  // A rule "from" the revision itself is in force in it; the cast only satisfies the legacy type.
  const from = revision as Revision
  return MODERN_CHECKS.map((def) => ({
    id: def.id,
    title: def.title,
    scope: 'server',
    how: def.how,
    rules: def.rules.map((rule) => ({ from, topic: rule.topic as never, keyword: rule.keyword, quote: rule.quote, ...(rule.case ? { case: rule.case } : {}) })),
  }))
}

const modernPath: PathOf = (topic) => modernTopicPath(topic as AnyModernTopic)

/** The checks that can judge `revision`'s sentences. */
export function checksFor(revision: string): readonly CheckDef[] {
  return isModernRevision(revision) ? modernDefs(revision) : CHECKS
}

export function coverageOf(file: SentenceFile): Coverage {
  return isModernRevision(file.revision) ? coverage(file, modernDefs(file.revision), modernPath) : coverage(file, CHECKS)
}
