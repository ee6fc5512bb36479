/**
 * Pure: a self-contained report.html. Every value from a run is escaped (server strings are
 * untrusted), only http(s) spec links become links, and a CSP that admits nothing but the
 * page's own hashed style and script backs the escaping up.
 */
import { createHash } from 'node:crypto'
import type { CheckResult, CheckStatus, RunReport, SuiteResult } from '../model.ts'
import { escapeHtml, safeUrl } from './escape.ts'
import { SCRIPT, STYLE } from './html-assets.ts'

const STATUSES: CheckStatus[] = ['fail', 'error', 'warn', 'pass', 'skip']
const LABEL: Record<CheckStatus, string> = { fail: 'Failures', error: 'Errors', warn: 'Warnings', pass: 'Passed', skip: 'Skipped' }

export function formatHtml(report: RunReport): string {
  const csp = `default-src 'none'; style-src '${sha256(STYLE)}'; script-src '${sha256(SCRIPT)}'; base-uri 'none'; form-action 'none'`
  const total = report.suites.reduce((n, s) => n + s.checks.length, 0)
  const expected = report.suites.flatMap((s) => s.checks).filter((c) => c.expected).length
  const counts = STATUSES.map((s) => `<span class="count ${s}">${report.summary[s]} ${s}</span>`).join('')
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
<div class="counts">${counts}</div>
<nav class="filters" aria-label="Filter checks by status">${filters}</nav>
</header>
<main>
${formatStale(report.staleBaseline)}${report.suites.map(formatSuite).join('\n')}
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

function formatSuite(suite: SuiteResult): string {
  const counts = STATUSES.map((s) => [s, suite.checks.filter((c) => c.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ')
  const info = [suite.kind === 'client' ? suite.id : '', suite.kind, suite.transport, `${suite.durationMs} ms`, counts].filter(Boolean).map((x) => escapeHtml(String(x)))
  return `<section class="suite" data-suite="${escapeHtml(suite.id)}">
<h2>${escapeHtml(suite.title)}</h2>
<p class="target">${[...(suite.title.includes(suite.target) ? [] : [escapeHtml(suite.target)]), ...info].join(' · ')}</p>
${suite.checks.map(formatCheck).join('\n')}
</section>`
}

function formatCheck(check: CheckResult): string {
  const href = safeUrl(check.spec?.url)
  const specLine = check.spec
    ? `<p class="spec">Spec: ${href ? `<a href="${escapeHtml(href)}" rel="noreferrer noopener" target="_blank">${escapeHtml(check.spec.ref)}</a>` : escapeHtml(check.spec.ref)}</p>`
    : ''
  const sections = [
    check.details !== undefined ? `<h3>Details</h3><pre>${escapeHtml(JSON.stringify(check.details, null, 2))}</pre>` : '',
    check.wire?.length ? `<h3>Wire</h3><pre>${escapeHtml(JSON.stringify(check.wire, null, 2))}</pre>` : '',
  ].join('')
  return `<details class="check" data-status="${escapeHtml(check.status)}">
<summary><span class="badge ${escapeHtml(check.status)}">${escapeHtml(check.status.toUpperCase())}</span><span class="id">${escapeHtml(check.id)}</span><span class="title">${escapeHtml(check.title)}</span>${check.expected ? '<span class="expected">expected</span>' : ''}</summary>
<div class="body"><p class="message">${escapeHtml(check.message)}</p>${specLine}${sections}</div>
</details>`
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`
}
