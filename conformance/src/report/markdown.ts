/**
 * Pure: a Markdown summary of a run, for a CI job page ($GITHUB_STEP_SUMMARY) or a pull-request
 * comment. It lists what needs a look (errors, failures, warnings) and counts the rest. Every
 * string that comes from a run (messages, check ids with tool names, targets) is untrusted: it is
 * flattened to one line, truncated and kept literal, ids as code spans, messages with only the
 * characters escaped that could start Markdown or HTML.
 */
import { suiteRunLabel, type CheckResult, type CheckStatus, type RunReport } from '../model.ts'
import { exitMeaning } from './headline.ts'
import { revisionsOf, revisionVerdictText } from './revisions.ts'

export interface MarkdownOptions {
  /** Rows of the non-passing table; the rest are counted, not listed (a job page has a size limit). */
  maxRows?: number
  /** Characters of a message kept before "…". */
  maxMessage?: number
}

/** The headline of a run that gave no verdict; the action (conformance/action/run.mjs) writes it too. */
export const COULD_NOT_RUN = '⚠️ MCP conformance: could not run'

const HEADLINE: Record<RunReport['exitCode'], string> = {
  0: '✅ MCP conformance: passed',
  1: '❌ MCP conformance: failed',
  2: COULD_NOT_RUN,
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
  // Skips and passes are counted above, never listed: a job page shows what needs a look.
  const rows = checks.filter(({ check }) => LISTED.includes(check.status)).sort((a, b) => rank(a.check) - rank(b.check))
  if (rows.length) {
    lines.push('', '### Checks that need a look', '', '| status | check | message |', '| --- | --- | --- |')
    for (const { suite, check } of rows.slice(0, maxRows)) {
      const over = suite.kind === 'client' && suite.transport ? ` (${suiteRunLabel(suite)})` : ''
      lines.push(`| ${statusWords(check)} | ${codeSpan(`${suite.id}:${check.id}`, maxMessage)}${over} | ${escapeMarkdown(check.message, maxMessage)} |`)
    }
    if (rows.length > maxRows) lines.push('', `…and ${rows.length - maxRows} more; report.html lists every check.`)
  }
  if (s.skip > 0) lines.push('', `${s.skip === 1 ? '1 skipped check is' : `${s.skip} skipped checks are`} not listed (each says why in report.html).`)
  const seconds = (report.durationMs / 1000).toFixed(1)
  lines.push('', `${escapeMarkdown(`${report.tool.name} ${report.tool.version}`)}, ${report.suites.length} suite${report.suites.length === 1 ? '' : 's'} in ${seconds} s; details in report.html.`)
  return `${lines.join('\n')}\n`
}

/** The statuses the table lists. */
const LISTED: readonly CheckStatus[] = ['error', 'fail', 'warn']
const ORDER: Record<CheckStatus, number> = { error: 0, fail: 1, warn: 2, skip: 4, pass: 5 }
/** Worst first: what broke the run, what costs clients something, what the baseline accepts. */
const rank = (check: CheckResult) => (check.status === 'fail' && check.expected ? 3 : ORDER[check.status])

function statusWords(check: CheckResult): string {
  if (check.status === 'fail' && check.expected) return 'fail (expected by the baseline)'
  return check.status
}

/** Control characters and line breaks as spaces (a table row is one line), at most `max` characters kept. */
function flatten(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const flat = text.replace(/[\u0000-\u001F\u007F]/g, ' ').replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat) // by code point, so a cut never splits a surrogate pair
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : flat
}

/**
 * Untrusted text as literal inline Markdown, flattened and bounded. Escaped (CommonMark allows a
 * backslash before any ASCII punctuation) are only the characters that can open something in a
 * table cell: `\` escapes, backticks (code), `*` `_` `~` (emphasis, strikethrough), `[` (links,
 * images, footnotes), `<` (HTML, autolinks), `&` (entities), `$` (GitHub's maths), `|` (the
 * cell's end), and a `:` that opens an emoji shortcode. A URL may still show as a link: its text
 * is the URL itself, so nothing is hidden.
 */
export function escapeMarkdown(text: string, max = 300): string {
  return flatten(text, max)
    .replace(/[\\`*_~[<&$|]/g, '\\$&')
    .replace(/:(?=[\w+-]+:)/g, '\\:')
}

/** Untrusted text as a code span: nothing in it is read as Markdown; `|` is escaped, as a table needs even there. */
export function codeSpan(text: string, max = 300): string {
  const flat = flatten(text, max)
  const fence = '`'.repeat(Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length)) + 1)
  // A span that starts or ends with a backtick needs a space inside its fence, which Markdown strips again.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${flat.replace(/\|/g, '\\|')}${pad}${fence}`
}
