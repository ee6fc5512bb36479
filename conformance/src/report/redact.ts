/**
 * Redaction of the report model. The rule itself is the plugin's (`@mcp-bridge/plugin`): this
 * only walks the model, so that everything a server said (wire excerpts, messages, details,
 * stderr) is redacted once, where it enters a suite, and every formatter (JSON, JUnit, HTML,
 * the console progress line) shows the same clean text.
 */
import { isSecretName, REDACTED, type Redact } from '@mcp-bridge/plugin'
import type { CheckResult, SuiteResult } from '../model.ts'

/** Pure: `value` with every string redacted, and every string member with a secret name replaced. */
export function redactValue<T>(value: T, redact: Redact): T {
  return walk(value, redact) as T
}

function walk(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) return value.map((item) => walk(item, redact))
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    out[key] = typeof inner === 'string' && isSecretName(key) ? REDACTED : walk(inner, redact)
  }
  return out
}

export function redactCheck(check: CheckResult, redact: Redact): CheckResult {
  return redactValue(check, redact)
}

/** The whole suite, every field: a field added to the model later is covered without a change here. */
export function redactSuite(suite: SuiteResult, redact: Redact): SuiteResult {
  return redactValue(suite, redact)
}
