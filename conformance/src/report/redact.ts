/**
 * Redaction of the report model. The rule itself is the plugin's (`@mcp-bridge/plugin`): this
 * only walks the model, so that everything a server said (wire excerpts, messages, details,
 * stderr) is redacted once, where it enters a suite, and every formatter (JSON, JUnit, HTML,
 * the console progress line) shows the same clean text. A check's citation (`spec`) is the kit's
 * own text, never the server's, and is kept verbatim: the secret shapes would otherwise take
 * `[key: string]` in a quoted schema type for a credential.
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
  for (const [key, inner] of Object.entries(value)) out[key] = member(key, inner, redact)
  return out
}

function member(key: string, value: unknown, redact: Redact): unknown {
  return typeof value === 'string' && isSecretName(key) ? REDACTED : walk(value, redact)
}

/** Every field but `spec`, in the order the check has them. */
export function redactCheck(check: CheckResult, redact: Redact): CheckResult {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(check)) out[key] = key === 'spec' ? value : member(key, value, redact)
  return out as unknown as CheckResult
}

/** The whole suite, every field: a field added to the model later is covered without a change here. */
export function redactSuite(suite: SuiteResult, redact: Redact): SuiteResult {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(suite)) out[key] = key === 'checks' ? suite.checks.map((check) => redactCheck(check, redact)) : member(key, value, redact)
  return out as unknown as SuiteResult
}
