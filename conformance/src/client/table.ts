import type { CheckResult, SuiteResult } from '../model.ts'

/** A client run's verdict in the published clients table (clients/table.ts renders it). */
export type Cell = 'pass' | 'fail' | 'warn' | 'n/a' | 'error'

/** How each verdict reads in a table cell. */
export const CELL_SYMBOLS: Record<Cell, string> = { pass: '✅ pass', fail: '❌ fail', warn: '⚠️ warn', 'n/a': '➖ n/a', error: '💥 error' }

/** Pure: one suite's verdict. A harness error outranks everything; a scenario that did not apply is n/a. */
export function cellOf(suite: SuiteResult | undefined): Cell | undefined {
  if (!suite) return undefined
  const has = (status: CheckResult['status']) => suite.checks.some((c) => c.status === status)
  if (has('error')) return 'error'
  if (suite.checks.some((c) => c.id === 'applies/scenario')) return 'n/a'
  if (has('fail')) return 'fail'
  if (has('warn')) return 'warn'
  return 'pass'
}
