/**
 * Pure helpers to build CheckResults. Every verdict goes through `verdict` so a check always has
 * a message, and evidence is bounded: server payloads are untrusted and can be arbitrarily large.
 */
import type { CheckResult, CheckStatus, SpecRef } from '../model.ts'

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

/** A prerequisite the check needs did not hold: a failure with a stable prefix, never a skip. */
export function notTestable(id: string, title: string, why: string, evidence: Evidence = {}): CheckResult {
  return verdict(id, title, 'fail', `Not testable: ${why}`, evidence)
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
  return text.length <= max ? text : `${text.slice(0, max)}…`
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
