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
