import type { CheckResult, SuiteResult } from '../model.ts'
import type { ClientEra } from './eras.ts'

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

/**
 * Pure: the eras a client speaks, for the table's era column: the union of what its runs show
 * (each suite's `spoke`, eras.ts clientEras). A dual-era client initializes with a legacy fixture
 * and speaks 2026-07-28 to a modern or dual-era one: `dual`. A legacy-only client initializes
 * everywhere, a modern-only one never does. `—` when no run shows either (no request sent).
 */
export function erasOf(suites: readonly SuiteResult[]): 'legacy' | 'modern' | 'dual' | '—' {
  const spoken = new Set<ClientEra>(suites.flatMap((suite) => suite.spoke ?? []))
  if (spoken.has('legacy') && spoken.has('modern')) return 'dual'
  return spoken.has('modern') ? 'modern' : spoken.has('legacy') ? 'legacy' : '—'
}
