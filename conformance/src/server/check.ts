/**
 * Pure helpers to build CheckResults. Every verdict goes through `verdict` so a check always has
 * a message, and evidence is bounded: server payloads are untrusted and can be arbitrarily large.
 */
import type { CheckResult, CheckStatus, SpecRef } from '../model.ts'
import { breachStatus, cite, firstRevision, ruleFor, type CheckDef } from './registry/types.ts'
import { knownRevision } from './spec.ts'
import type { RpcOutcome } from './wire/types.ts'
import { cut } from './quote.ts'

export interface Evidence {
  spec?: SpecRef
  details?: unknown
  wire?: unknown[]
}

export function verdict(id: string, title: string, status: CheckStatus, message: string, evidence: Evidence = {}): CheckResult {
  const result: CheckResult = { id, title, status, message }
  if (evidence.spec) result.spec = evidence.spec
  if (evidence.details !== undefined) result.details = excerpt(evidence.details)
  if (evidence.wire && evidence.wire.length > 0) result.wire = excerpt(evidence.wire, WIRE_LIMITS) as unknown[]
  return result
}

/**
 * A "Not testable" skip names the check that reports the failure it could not be judged past. It
 * stands only if that check does report a fail or warn in the same run (settle.ts decides, once
 * the run is over); otherwise the fallback is reported: the failure, at most at the check's own
 * keyword, so a SHOULD check never fails and a bridge check never rises above skip.
 */
export interface Dependency {
  prerequisite: string
  fallback: CheckResult
}

const DEPENDENCIES = new WeakMap<CheckResult, Dependency>()

export function dependencyOf(check: CheckResult): Dependency | undefined {
  return DEPENDENCIES.get(check)
}

/** Evidence without the citation: a judge cites the rule itself. */
export type Observed = Omit<Evidence, 'spec'>

/**
 * Verdicts for one check in one revision. The citation comes from the registry, and the status of
 * a breach from the cited sentence's keyword, so no probe can pick a severity the spec does not give.
 */
export interface Judge {
  readonly id: string
  readonly title: string
  /** False when the negotiated revision has no sentence for this check. */
  readonly applies: boolean
  pass(message: string, observed?: Observed): CheckResult
  /**
   * The rule (or its `ruleCase`) was broken: fail, warn or information, as its keyword says. A
   * `ruleCase` with no sentence in the negotiated revision is information, citing nothing: it
   * never borrows the main sentence's keyword, which says nothing about that case.
   */
  breach(message: string, observed?: Observed, ruleCase?: string): CheckResult
  skip(message: string, observed?: Observed): CheckResult
  /**
   * An observation the spec attaches no requirement to: a skip that says so. With `ruleCase`, it
   * cites that case's sentence (e.g. the SHOULD the server followed) instead of the main one.
   */
  info(message: string, observed?: Observed, ruleCase?: string): CheckResult
  /**
   * A prerequisite did not hold. `prerequisite`: the id of the check that reports that failure
   * (undefined when none does: then the check reports it itself, at most at its own keyword).
   */
  notTestable(prerequisite: string | undefined, why: string, observed?: Observed): CheckResult
  /** The skip for a revision that lacks the rule. */
  notInRevision(): CheckResult
  /** A breach the kit reports one step below its keyword, for the reason the registry's `note` gives. */
  softened(message: string, observed?: Observed): CheckResult
  error(message: string, observed?: Observed): CheckResult
}

/** How an observation without a requirement starts, so readers and tools can tell it from a plain skip. */
export const INFORMATION = 'Information (the spec states no requirement here): '

export function judge(def: CheckDef, revision: string, params: Record<string, string> = {}): Judge {
  const v = knownRevision(revision)
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, key: string) => params[key] ?? `{${key}}`)
  const id = fill(def.id)
  const title = fill(def.title)
  const main = ruleFor(def, v)
  // A named case is governed by its own sentence only; without one in this revision there is none.
  const governing = (ruleCase?: string) => (ruleCase === undefined ? main : ruleFor(def, v, ruleCase))
  const spec = (ruleCase?: string): SpecRef | undefined => {
    const rule = governing(ruleCase)
    return rule ? cite(rule, v) : undefined
  }
  const with_ = (observed: Observed = {}, ruleCase?: string): Evidence => {
    const ref = spec(ruleCase)
    return { ...observed, ...(ref ? { spec: ref } : {}) }
  }
  return {
    id,
    title,
    applies: main !== undefined,
    pass: (message, observed) => verdict(id, title, 'pass', message, with_(observed)),
    breach: (message, observed, ruleCase) => {
      const rule = governing(ruleCase)
      const status = rule ? breachStatus(rule.keyword, def.scope) : 'skip'
      const unruled = rule === undefined && ruleCase !== undefined ? ` (no sentence of ${v} governs this case)` : ''
      const text = status === 'skip' ? `${INFORMATION}${message}${unruled}` : message
      return verdict(id, title, status, text, with_(observed, ruleCase))
    },
    info: (message, observed, ruleCase) => verdict(id, title, 'skip', `${INFORMATION}${message}`, with_(observed, ruleCase)),
    skip: (message, observed) => verdict(id, title, 'skip', message, with_(observed)),
    notTestable: (prerequisite, why, observed) => {
      // The bridge's own checks never fail a server, not even for a missing prerequisite.
      const own: CheckStatus = main && def.scope !== 'bridge' ? breachStatus(main.keyword, def.scope) : 'skip'
      const fallback = verdict(id, title, own, `Not testable: ${why}`, with_(observed))
      if (prerequisite === undefined) return fallback
      const check = verdict(id, title, 'skip', `Not testable: ${why}; ${prerequisite} reports the failure`, with_(observed))
      DEPENDENCIES.set(check, { prerequisite, fallback })
      return check
    },
    notInRevision: () => {
      const since = firstRevision(def)
      return verdict(id, title, 'skip', `not part of the negotiated revision ${v}: the rule arrived in ${since}`)
    },
    softened: (message, observed) => {
      if (!def.note) throw new Error(`${def.id}: a softened verdict needs a registry note saying why`)
      return verdict(id, title, 'warn', message, with_(observed))
    },
    error: (message, observed) => verdict(id, title, 'error', message, with_(observed)),
  }
}

/**
 * An answer whose envelope is broken (both a result and an error, or neither) answers nothing the
 * kit can judge: the jsonrpc check named in the outcome reports it, once, and `j` is not testable.
 */
export function unreadable(j: Judge, what: string, outcome: RpcOutcome | undefined): CheckResult | undefined {
  if (outcome?.kind !== 'malformed' || outcome.envelope === undefined) return undefined
  return j.notTestable(outcome.envelope, `the answer to ${what} ${outcome.reason}`, { wire: outcome.wire })
}

interface Limits {
  string: number
  array: number
  keys: number
  depth: number
}

const DETAIL_LIMITS: Limits = { string: 2_000, array: 100, keys: 100, depth: 8 }
const WIRE_LIMITS: Limits = { string: 600, array: 40, keys: 60, depth: 10 }

/** A JSON-safe copy of `value` with long strings, arrays and deep nesting cut and marked. */
export function excerpt(value: unknown, limits: Limits = DETAIL_LIMITS, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length <= limits.string ? value : `${value.slice(0, limits.string)}… [${value.length - limits.string} more characters]`
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'bigint') return value.toString()
  if (typeof value !== 'object') return value === undefined ? null : String(value)
  if (depth >= limits.depth) return '[nested too deep for the report]'
  if (Array.isArray(value)) {
    const kept = value.slice(0, limits.array).map((item) => excerpt(item, limits, depth + 1))
    if (value.length > limits.array) kept.push(`… [${value.length - limits.array} more items]`)
    return kept
  }
  const out: Record<string, unknown> = {}
  const entries = Object.entries(value as Record<string, unknown>)
  for (const [key, item] of entries.slice(0, limits.keys)) out[key] = excerpt(item, limits, depth + 1)
  if (entries.length > limits.keys) out['…'] = `${entries.length - limits.keys} more keys`
  return out
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A short, safe rendering of an untrusted value for a message line. */
export function show(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value)
  return cut(text, max)
}

/** "a, b and 3 more" for message lines. */
export function list(items: string[], max = 5): string {
  if (items.length <= max) return items.join(', ')
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`
}

/** "1 tool", "3 tools". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`
}
