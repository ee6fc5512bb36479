/** Pure: the human-readable lines for stderr — progress per check and the closing summary. */
import type { CheckResult, CheckStatus, RunReport } from '../model.ts'

const MARK: Record<CheckStatus, string> = { pass: '✓', fail: '✗', warn: '!', skip: '-', error: 'E' }

export function progressLine(check: CheckResult): string {
  const expected = check.expected ? ' (expected)' : ''
  return `  ${MARK[check.status]} ${check.status.padEnd(5)} ${check.id}${expected}${check.status === 'pass' ? '' : ` — ${oneLine(check.message)}`}`
}

export function formatSummary(report: RunReport, written: string[] = []): string {
  const lines: string[] = ['']
  for (const suite of report.suites) {
    const counts = (['pass', 'fail', 'warn', 'skip', 'error'] as const)
      .map((s) => [s, suite.checks.filter((c) => c.status === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ')
    lines.push(`${suite.title} (${suite.durationMs} ms): ${counts || 'no checks'}`)
    for (const check of suite.checks) {
      if (check.status === 'fail' || check.status === 'error' || check.status === 'warn') lines.push(progressLine(check))
    }
  }
  const s = report.summary
  const expected = report.suites.flatMap((x) => x.checks).filter((c) => c.expected).length
  lines.push('', `Total: ${s.pass} passed, ${s.fail} failed${expected ? ` (${expected} expected by the baseline)` : ''}, ${s.warn} warnings, ${s.skip} skipped, ${s.error} errors`)
  if (report.staleBaseline.length) lines.push(`Stale baseline entries (no longer failing; remove them): ${report.staleBaseline.join(', ')}`)
  if (written.length) lines.push(`Reports: ${written.join(', ')}`)
  lines.push(`Exit code ${report.exitCode}: ${EXIT_MEANING[report.exitCode]}`)
  return `${lines.join('\n')}\n`
}

const EXIT_MEANING: Record<RunReport['exitCode'], string> = {
  0: 'all checks pass (warnings and skips allowed)',
  1: 'a check failed or a baseline entry is stale',
  2: 'a check could not run (harness error) or the command was invalid',
}

function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`
}
