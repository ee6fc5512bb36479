import type { CheckResult, SuiteResult } from '../model.ts'

/**
 * conformance/docs/CLIENTS.md from client-scenario suites of several clients: one matrix (scenario × client,
 * per transport), then each failure and warning with its one-line evidence, then what was not
 * applicable and why. Pure and deterministic: no dates, no durations, rows in scenario order.
 */
export interface ClientColumn {
  /** Column heading, e.g. "@ai-sdk/mcp". */
  name: string
  /** Pinned package and version, and how the driver configures the client. */
  about: string
  suites: SuiteResult[]
}

export type Cell = 'pass' | 'fail' | 'warn' | 'n/a' | 'error'

const SYMBOL: Record<Cell, string> = { pass: '✅ pass', fail: '❌ fail', warn: '⚠️ warn', 'n/a': '➖ n/a', error: '💥 error' }

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

/** One line of evidence: the check, what was seen, and the rule. */
function evidence(check: CheckResult): string {
  const message = check.message.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 300)
  const rule = check.spec ? ` (${check.spec.url ? `[${check.spec.ref}](${check.spec.url})` : check.spec.ref})` : ''
  return `\`${check.id}\`: ${message}${rule}`
}

export function formatClientsTable(columns: ClientColumn[], intro: string): string {
  const rows = [...new Set(columns.flatMap((c) => c.suites.map((s) => `${s.id} [${s.transport}]`)))].sort()
  const find = (column: ClientColumn, row: string) => column.suites.find((s) => `${s.id} [${s.transport}]` === row)
  const lines = [intro.trimEnd(), '', '## Clients', '', '| client | package and configuration |', '| --- | --- |']
  for (const column of columns) lines.push(`| ${column.name} | ${column.about.replace(/\|/g, '\\|')} |`)

  lines.push('', '## Totals', '', `| client | ${(Object.keys(SYMBOL) as Cell[]).join(' | ')} |`, `| --- | ${Object.keys(SYMBOL).map(() => '---:').join(' | ')} |`)
  for (const column of columns) {
    const counts = (Object.keys(SYMBOL) as Cell[]).map((cell) => rows.filter((row) => cellOf(find(column, row)) === cell).length)
    lines.push(`| ${column.name} | ${counts.join(' | ')} |`)
  }

  lines.push('', '## Matrix', '', `| scenario [transport] | ${columns.map((c) => c.name).join(' | ')} |`, `| --- | ${columns.map(() => '---').join(' | ')} |`)
  for (const row of rows) lines.push(`| ${row} | ${columns.map((c) => (cellOf(find(c, row)) ? SYMBOL[cellOf(find(c, row))!] : ' ')).join(' | ')} |`)

  lines.push('', '## Failures and warnings', '', 'Each line is one check that did not hold, with what the kit saw and the rule it enforces. Reproduce one with `npx mcp-conformance client --driver "<driver>" --scenario <id> --transport <t>`.')
  for (const column of columns) {
    const bad = column.suites.flatMap((suite) => suite.checks.filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error').map((check) => ({ suite, check })))
    lines.push('', `### ${column.name}`, '')
    if (!bad.length) lines.push('None.')
    for (const { suite, check } of bad) lines.push(`- ${check.status} · ${suite.id} [${suite.transport}] · ${evidence(check)}`)
  }

  lines.push('', '## Not applicable', '', 'Scenarios a client is not judged on, and why (the same for every driven client unless its driver declares the feature).', '')
  const reasons = new Map<string, string>()
  for (const column of columns) for (const suite of column.suites) for (const check of suite.checks) if (check.id === 'applies/scenario') reasons.set(suite.id, check.message.replace(/^not applicable: /, ''))
  for (const [id, reason] of [...reasons].sort()) lines.push(`- ${id}: ${reason}`)
  return `${lines.join('\n')}\n`
}
