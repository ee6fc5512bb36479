/**
 * Pure: verdicts of a modern check, cited from its 2026-07-28 sentence. As for the legacy checks
 * (../check.ts), the status of a breach comes from the sentence's keyword, never from the probe.
 */
import type { CheckResult, SpecRef } from '../../model.ts'
import { INFORMATION, verdict, type Observed } from '../check.ts'
import { breachStatus } from '../registry/types.ts'
import { LATEST_MODERN_REVISION, type ModernRevision } from '../spec.ts'
import { modernTopicLabel, modernTopicUrl } from './topics.ts'
import type { ModernCheckDef, ModernRule } from './registry.ts'

export interface ModernJudge {
  readonly id: string
  pass(message: string, observed?: Observed): CheckResult
  /** The rule (or its `ruleCase`) was broken: fail, warn or information, as its keyword says. */
  breach(message: string, observed?: Observed, ruleCase?: string): CheckResult
  skip(message: string, observed?: Observed): CheckResult
}

export function citeModern(rule: ModernRule, revision: ModernRevision): SpecRef {
  const keyword = rule.keyword === 'NONE' ? 'no requirement' : rule.keyword
  return { ref: `${modernTopicLabel(revision, rule.topic)}: ${keyword}`, url: modernTopicUrl(revision, rule.topic), keyword: rule.keyword, quote: rule.quote }
}

export function modernJudge(def: ModernCheckDef, revision: ModernRevision = LATEST_MODERN_REVISION): ModernJudge {
  const governing = (ruleCase?: string) => def.rules.find((rule) => rule.case === ruleCase)
  const evidence = (observed: Observed = {}, ruleCase?: string) => {
    const rule = governing(ruleCase)
    return { ...observed, ...(rule ? { spec: citeModern(rule, revision) } : {}) }
  }
  return {
    id: def.id,
    pass: (message, observed) => verdict(def.id, def.title, 'pass', message, evidence(observed)),
    breach: (message, observed, ruleCase) => {
      const rule = governing(ruleCase)
      const status = rule ? breachStatus(rule.keyword, 'server') : 'skip'
      return verdict(def.id, def.title, status, status === 'skip' ? `${INFORMATION}${message}` : message, evidence(observed, ruleCase))
    },
    skip: (message, observed) => verdict(def.id, def.title, 'skip', message, evidence(observed)),
  }
}
