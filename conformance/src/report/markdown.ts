/**
 * Pure: a Markdown summary of a run, for a CI job page ($GITHUB_STEP_SUMMARY) or a pull-request
 * comment. Every string that comes from a run (messages, check ids with tool names, targets) is
 * untrusted: it is flattened to one line, truncated and escaped so it stays literal text.
 */
import type { CheckResult, CheckStatus, RunReport } from '../model.ts'
import { exitMeaning } from './headline.ts'
import { revisionsOf, revisionVerdictText } from './revisions.ts'

export interface MarkdownOptions {
  /** Rows of the non-passing table; the rest are counted, not listed (a job page has a size limit). */
  maxRows?: number
  /** Characters of a message kept before "…". */
  maxMessage?: number
}

const HEADLINE: Record<RunReport['exitCode'], string> = {
  0: '✅ MCP conformance: passed',
  1: '❌ MCP conformance: failed',
  2: '⚠️ MCP conformance: could not run',
}

export function formatMarkdownSummary(report: RunReport, options: MarkdownOptions = {}): string {
  const { maxRows = 50, maxMessage = 300 } = options
  const checks = report.suites.flatMap((suite) => suite.checks.map((check) => ({ suite, check })))
  const expected = checks.filter(({ check }) => check.expected).length
  const s = report.summary
  const lines = [
    `## ${HEADLINE[report.exitCode]}`,
    '',
    exitMeaning(report),
    '',
    '| passed | failed | warnings | skipped | errors |',
    '| ---: | ---: | ---: | ---: | ---: |',
    `| ${s.pass} | ${s.fail}${expected ? ` (${expected} expected by the baseline)` : ''} | ${s.warn} | ${s.skip} | ${s.error} |`,
  ]
  const revisions = revisionsOf(report)
  if (revisions) {
    // Each spec revision's verdict side by side: the run fails when any of them fails.
    lines.push('', '### By spec revision', '', '| revision | transport | verdict | passed | failed | warnings | skipped | errors |', '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |')
    for (const row of revisions) {
      const c = row.summary
      lines.push(`| ${escapeMarkdown(row.revision)} | ${escapeMarkdown(row.transport ?? '')} | ${escapeMarkdown(revisionVerdictText(row))} | ${c.pass} | ${c.fail} | ${c.warn} | ${c.skip} | ${c.error} |`)
    }
  }
  if (report.staleBaseline.length) {
    lines.push('', `Stale baseline entries (they no longer fail; remove them): ${report.staleBaseline.map((id) => escapeMarkdown(id, maxMessage)).join(', ')}`)
  }
  const rows = checks.filter(({ check }) => check.status !== 'pass').sort((a, b) => rank(a.check) - rank(b.check))
  if (rows.length) {
    lines.push('', '### Checks that did not pass', '', '| status | check | message |', '| --- | --- | --- |')
    for (const { suite, check } of rows.slice(0, maxRows)) {
      const where = `${suite.id}:${check.id}${suite.kind === 'client' && suite.transport ? ` (${suite.transport})` : ''}`
      lines.push(`| ${statusWords(check)} | ${escapeMarkdown(where, maxMessage)} | ${escapeMarkdown(check.message, maxMessage)} |`)
    }
    if (rows.length > maxRows) lines.push('', `…and ${rows.length - maxRows} more; report.html lists every check.`)
  }
  const seconds = (report.durationMs / 1000).toFixed(1)
  lines.push('', `${escapeMarkdown(`${report.tool.name} ${report.tool.version}`)}, ${report.suites.length} suite${report.suites.length === 1 ? '' : 's'} in ${seconds} s; details in report.html.`)
  return `${lines.join('\n')}\n`
}

const ORDER: Record<CheckStatus, number> = { error: 0, fail: 1, warn: 2, skip: 4, pass: 5 }
/** Worst first: what broke the run, what costs clients something, what the baseline accepts, what did not apply. */
const rank = (check: CheckResult) => (check.status === 'fail' && check.expected ? 3 : ORDER[check.status])

function statusWords(check: CheckResult): string {
  if (check.status === 'fail' && check.expected) return 'fail (expected by the baseline)'
  return check.status
}

/**
 * Untrusted text as literal inline Markdown: control characters and line breaks become spaces
 * (a table row is one line), at most `max` characters are kept, and every ASCII punctuation
 * character is backslash-escaped. CommonMark allows escaping each of them, which stops emphasis,
 * links, autolinks, raw HTML and a `|` ending the table cell.
 */
export function escapeMarkdown(text: string, max = 300): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const flat = text.replace(/[\u0000-\u001F\u007F]/g, ' ').replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat) // by code point, so a cut never splits a surrogate pair
  const cut = chars.length > max ? `${chars.slice(0, max).join('')}…` : flat
  return cut.replace(/[!-/:-@[-`{-~]/g, '\\$&')
}
