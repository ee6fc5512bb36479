/**
 * Pure: a self-contained report.html. The overview comes first (the verdict in words, the
 * matrices, what changed), then one section per suite. Every value from a run is escaped
 * (server and client strings are untrusted), only http(s) spec links become links, and a CSP
 * that admits nothing but the page's own hashed style and script backs the escaping up. The
 * wire diagrams are inline SVG, which needs neither.
 */
import { createHash } from 'node:crypto'
import type { CheckStatus, RunReport } from '../model.ts'
import type { Comparison } from './compare.ts'
import { escapeHtml } from './escape.ts'
import { expectedFailures } from './headline.ts'
import { SCRIPT, STYLE } from './html-assets.ts'
import { formatHeadline, formatOverview } from './html-overview.ts'
import { formatSuite } from './html-suite.ts'

const STATUSES: CheckStatus[] = ['fail', 'error', 'warn', 'pass', 'skip']
const LABEL: Record<CheckStatus, string> = { fail: 'Failures', error: 'Errors', warn: 'Warnings', pass: 'Passed', skip: 'Skipped' }

export interface HtmlOptions {
  /** What changed against a previous run (`--compare`). */
  comparison?: Comparison
}

export function formatHtml(report: RunReport, options: HtmlOptions = {}): string {
  const csp = `default-src 'none'; style-src '${sha256(STYLE)}'; script-src '${sha256(SCRIPT)}'; base-uri 'none'; form-action 'none'`
  const total = report.suites.reduce((n, s) => n + s.checks.length, 0)
  const expected = expectedFailures(report)
  const filters = [
    `<button type="button" data-filter="all" aria-pressed="true">All (${total})</button>`,
    ...STATUSES.map((s) => `<button type="button" data-filter="${s}" aria-pressed="false">${LABEL[s]} (${report.summary[s]})</button>`),
  ].join('')
  const meta = [
    `${escapeHtml(report.tool.name)} ${escapeHtml(report.tool.version)}`,
    `results format ${report.formatVersion}`,
    `started ${escapeHtml(report.startedAt)}`,
    `${(report.durationMs / 1000).toFixed(1)} s`,
    `exit code ${report.exitCode}`,
    expected ? `${expected} expected failure${expected === 1 ? '' : 's'} (baseline)` : '',
  ].filter(Boolean)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MCP conformance report</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>MCP conformance report</h1>
<p class="meta">${meta.join(' · ')}</p>
${formatHeadline(report)}
</header>
<main>
${formatOverview(report, options.comparison)}${formatStale(report.staleBaseline)}<nav class="filters" aria-label="Filter checks by status">${filters}</nav>
${report.suites.map(formatSuite).join('\n')}
<p class="empty" hidden>No checks with this status.</p>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`
}

function formatStale(stale: string[]): string {
  if (stale.length === 0) return ''
  const items = stale.map((entry) => `<li><code>${escapeHtml(entry)}</code></li>`).join('')
  return `<section class="stale"><strong>Stale baseline entries</strong> (they no longer fail; remove them):<ul>${items}</ul></section>\n`
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`
}
