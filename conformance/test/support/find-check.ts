import type { CheckResult, SuiteResult } from '../../src/model.ts'

/** The suite's check with this id; a test that names a check the run did not produce fails here, saying which ran. */
export function findCheck(suite: SuiteResult, id: string): CheckResult {
  const found = suite.checks.find((c) => c.id === id)
  if (!found) throw new Error(`no check ${id} in ${suite.checks.map((c) => c.id).join(', ')}`)
  return found
}

/** Every check that is not a pass or a skip, as "id: message", for comparing runs at a glance. */
export function flagged(suite: SuiteResult): string[] {
  return suite.checks.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).map((c) => `${c.id}: ${c.message}`)
}

/**
 * `flagged`, less the one warn the v2 SDK's server earns on 2026-07-28: it serves tools/list for a
 * cursor it never issued (pagination, error handling: a SHOULD).
 */
export function flaggedBeyondSdk(suite: SuiteResult): string[] {
  return flagged(suite).filter((line) => !/^modern\/standard-errors: tools\/list with cursor mcp-conformance-invalid-cursor got a result/.test(line))
}
