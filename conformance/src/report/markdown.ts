/**
 * Pure: a Markdown summary of a run, for a CI job page ($GITHUB_STEP_SUMMARY) or a pull-request
 * comment. Every string that comes from a run (messages, check ids with tool names, targets) is
 * untrusted: it is flattened to one line, truncated and escaped so it stays literal text.
 */
import type { CheckResult, CheckStatus, RunReport } from '../model.ts'

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
    meaning(report, expected),
    '',
    '| passed | failed | warnings | skipped | errors |',
    '| ---: | ---: | ---: | ---: | ---: |',
    `| ${s.pass} | ${s.fail}${expected ? ` (${expected} expected by the baseline)` : ''} | ${s.warn} | ${s.skip} | ${s.error} |`,
  ]
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

/** The exit code in words: what it means for this run, not only in general. */
function meaning(report: RunReport, expected: number): string {
  const { fail, error } = report.summary
  const stale = report.staleBaseline.length
  if (report.exitCode === 2) return `Exit code 2: ${count(error, 'check')} could not run (a harness error: the kit failed, which says nothing about the target).`
  if (report.exitCode === 1) {
    const reasons = [fail - expected > 0 ? `${count(fail - expected, 'check')} failed that the baseline does not expect` : '', stale ? `${count(stale, 'baseline entry', 'baseline entries')} ${stale === 1 ? 'is' : 'are'} stale` : '']
    return `Exit code 1: ${reasons.filter(Boolean).join(', and ')}.`
  }
  return `Exit code 0: every check passed${expected ? `, apart from ${count(expected, 'failure')} the baseline expects` : ''}; warnings and skips are allowed.`
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

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
