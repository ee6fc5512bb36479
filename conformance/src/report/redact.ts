/**
 * Redaction of the report model. The rule itself is the one the plugin applies (`@mcp-bridge/process`): this
 * only walks the model, so that everything a server said (wire excerpts, messages, details,
 * stderr) is redacted once, where it enters a suite, and every formatter (JSON, JUnit, HTML,
 * the console progress line) shows the same clean text. A check's citation (`spec`) is the kit's
 * own text, never the server's, and is kept verbatim: the secret shapes would otherwise take
 * `[key: string]` in a quoted schema type for a credential (a merged run's citations are not the
 * kit's, and merge.ts redacts them).
 *
 * Keys are text too (a server names an inputSchema property or a prompt argument as it likes), so
 * they are redacted like values. Every string and key is bounded first, by the one quoting rule
 * of the server checks (`cut`, server/quote.ts: redact a window, then cut): a results.json given
 * to `--merge` or a wire log given to `judge` is not cut where it is read, as a live run is.
 */
import { isSecretName, REDACTED, type Redact } from '@mcp-bridge/process'
import type { CheckResult, SuiteResult } from '../model.ts'
import { cut } from '../server/quote.ts'

/** Characters of one string or key kept in a report: far above anything a run writes (a transcript is ~10 KB). */
export const MAX_REPORT_STRING = 65_536
/** Levels of nesting kept in a report (a wire excerpt is cut at 10): deeper values are replaced, so no writer recurses without end. */
export const MAX_REPORT_DEPTH = 64
const TOO_DEEP = '[nested too deep for the report]'

/** Pure: `value` with every string and key redacted, and every string member with a secret name replaced. */
export function redactValue<T>(value: T, redact: Redact): T {
  return walk(value, redact, 0) as T
}

function walk(value: unknown, redact: Redact, depth: number): unknown {
  if (typeof value === 'string') return text(value, redact)
  if (typeof value !== 'object' || value === null) return value
  if (depth >= MAX_REPORT_DEPTH) return TOO_DEEP
  if (Array.isArray(value)) return value.map((item) => walk(item, redact, depth + 1))
  return members(Object.entries(value), redact, depth + 1)
}

/**
 * An object of redacted keys and values. Two keys that redact to the same text both stay: the
 * later one gets ` (2)`, ` (3)`… (a schema with two secret property names keeps two properties).
 * Built with Object.fromEntries, so a key `__proto__` is a member like any other.
 */
function members(entries: Array<[string, unknown]>, redact: Redact, depth: number, fields: Fields = {}): Record<string, unknown> {
  const seen = new Set<string>()
  const out: Array<[string, unknown]> = []
  for (const [key, inner] of entries) {
    const own = Object.hasOwn(fields, key) ? fields[key] : undefined
    const clean = own ? key : text(key, redact)
    let unique = clean
    for (let n = 2; seen.has(unique); n++) unique = `${clean} (${n})`
    seen.add(unique)
    out.push([unique, own ? own(inner) : member(key, inner, redact, depth)])
  }
  return Object.fromEntries(out)
}

/** Fields of the model taken apart from the walk, by their name. */
type Fields = Record<string, (value: unknown) => unknown>

function member(key: string, value: unknown, redact: Redact, depth: number): unknown {
  return typeof value === 'string' && isSecretName(key) ? REDACTED : walk(value, redact, depth)
}

/** Bounded before it is redacted: a redactor given megabytes costs time, and the plugin's, stack. */
function text(value: string, redact: Redact): string {
  return redact(value.length > MAX_REPORT_STRING ? cut(value, MAX_REPORT_STRING) : value)
}

/** Every field but `spec`, in the order the check has them. */
export function redactCheck(check: CheckResult, redact: Redact): CheckResult {
  return members(Object.entries(check), redact, 1, { spec: (spec) => spec }) as unknown as CheckResult
}

/** The whole suite, every field: a field added to the model later is covered without a change here. */
export function redactSuite(suite: SuiteResult, redact: Redact): SuiteResult {
  return members(Object.entries(suite), redact, 1, { checks: () => suite.checks.map((check) => redactCheck(check, redact)) }) as unknown as SuiteResult
}
