/**
 * Pure: the top of report.html, what a reader sees first: the verdict in words, the counts, the
 * changes since a previous run, and the matrices whose cells link to the detail below.
 */
import type { RunReport } from '../model.ts'
import type { CheckChange, Comparison } from './compare.ts'
import { escapeHtml } from './escape.ts'
import { exitMeaning, VERDICT } from './headline.ts'
import { clientMatrix, serverMatrix, tally, TONES, type Cell, type Matrix, type Tone } from './overview.ts'

/** The word each colour stands for, everywhere in the page. */
export const TONE_WORD: Record<Tone, string> = { pass: 'pass', expected: 'expected', fail: 'fail', warn: 'warn', skip: 'skip', error: 'error' }
const TONE_MEANING: Record<Tone, string> = {
  pass: 'the requirement holds',
  expected: 'fails, and the baseline expects it',
  fail: 'fails, and the baseline does not expect it',
  warn: 'a SHOULD is broken',
  skip: 'does not apply',
  error: 'the kit could not run the check',
}

export function formatHeadline(report: RunReport): string {
  const verdict = VERDICT[report.exitCode]
  const counts = tally(report.suites.flatMap((s) => s.checks))
  const pills = TONES.filter((tone) => counts[tone] > 0 || tone === 'fail' || tone === 'pass')
    .map((tone) => `<span class="count ${tone}" title="${escapeHtml(TONE_MEANING[tone])}">${counts[tone]} ${TONE_WORD[tone]}</span>`)
    .join('')
  return `<div class="headline ${verdict.replaceAll(' ', '-')}"><strong>${capitalise(verdict)}.</strong> ${escapeHtml(exitMeaning(report))}</div>
<div class="counts">${pills}</div>`
}

export function formatOverview(report: RunReport, comparison?: Comparison): string {
  const client = clientMatrix(report)
  const server = serverMatrix(report)
  const clientTargets = [...new Set(report.suites.filter((s) => s.kind === 'client').map((s) => s.target))]
  const serverTargets = [...new Set(report.suites.filter((s) => s.kind === 'server').map((s) => s.target))]
  const tables = [
    client && formatMatrix('Client scenarios', clientTargets.join(', '), 'scenario', client),
    server && formatMatrix('Server checks', serverTargets.join(', '), 'area', server),
  ].filter(Boolean)
  return `<section class="overview" aria-label="Overview">
${comparison ? formatChanges(comparison) : ''}<p class="legend">${TONES.map((tone) => `<span class="swatch ${tone}"></span>${TONE_WORD[tone]}: ${escapeHtml(TONE_MEANING[tone])}`).join('<span class="sep"> · </span>')}. A cell takes its worst colour and counts the checks that have it; click it for the detail.</p>
<div class="matrices">${tables.join('\n')}</div>
</section>
`
}

function formatMatrix(title: string, target: string, rowName: string, matrix: Matrix): string {
  const verdicts = matrix.verdicts
    ? `<tr class="verdicts"><th scope="row" title="each spec revision's verdict: a failure the baseline does not expect fails it; not supported: the server offered another revision (or refused this one), so only initialize was judged">verdict</th>${matrix.verdicts.map((v) => `<td>${v ? `<span class="verdict ${v.tone}" data-revision="${escapeHtml(v.revision)}">${escapeHtml(v.text)}</span>` : ''}</td>`).join('')}</tr>`
    : ''
  const head = `<tr><th scope="col">${rowName}</th>${matrix.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr>${verdicts}`
  const rows = matrix.rows.map(
    (row) => `<tr><th scope="row"${row.title ? ` title="${escapeHtml(row.title)}"` : ''}>${escapeHtml(row.label)}</th>${row.cells.map((cell) => `<td>${cell ? formatCell(cell) : '<span class="cell none">—</span>'}</td>`).join('')}</tr>`,
  )
  return `<div class="matrix-box"><h2>${title}</h2><p class="target">${escapeHtml(target)}</p>
<table class="matrix"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></div>`
}

function formatCell(cell: Cell): string {
  const href = `#suite-${cell.suite}${cell.area === undefined ? '' : `-area-${cell.area}`}`
  const parts = TONES.filter((tone) => cell.counts[tone] > 0).map((tone) => `${cell.counts[tone]} ${TONE_WORD[tone]}`)
  const title = `${cell.total} check${cell.total === 1 ? '' : 's'}: ${parts.join(', ') || 'none'}`
  if (cell.tone === 'none') return `<a class="cell none" href="${href}" data-tone="none" data-count="0" data-total="0" title="${title}">no checks</a>`
  const n = cell.counts[cell.tone]
  // The rest in small print: "1 expected" over "1 warn · 15 pass" says more than "1 expected of 17".
  const rest = parts.slice(1).length ? `<small>${parts.slice(1).join(' · ')}</small>` : ''
  return `<a class="cell ${cell.tone}" href="${href}" data-tone="${cell.tone}" data-count="${n}" data-total="${cell.total}" title="${escapeHtml(title)}">${n} ${TONE_WORD[cell.tone]}${rest}</a>`
}

/** Per kind of change: comparing against an unrelated run must not list every check of both. */
const MAX_CHANGES = 100

function formatChanges(comparison: Comparison): string {
  const groups: Array<[string, CheckChange[], (c: CheckChange) => string]> = [
    ['New failures', comparison.newFailures, (c) => `${c.before} → ${c.after}${c.expected ? ' (expected by the baseline)' : ''}`],
    ['Fixed', comparison.fixed, (c) => `${c.before} → ${c.after}`],
    ['New checks', comparison.added, (c) => `${c.after}${c.expected ? ' (expected by the baseline)' : ''}`],
    ['Removed checks', comparison.removed, (c) => `was ${c.before}`],
    ['Other changes', comparison.changed, (c) => `${c.before} → ${c.after}`],
  ]
  const shown = groups.filter(([, changes]) => changes.length > 0)
  const summary = groups.map(([name, changes]) => `${changes.length} ${name.toLowerCase()}`).join(' · ')
  const lists = shown.map(([name, changes, status]) => {
    const items = changes.slice(0, MAX_CHANGES).map((c) => `<li><code>${escapeHtml(`${c.suite}:${c.check}`)}</code> <span class="change">${escapeHtml(status(c))}</span></li>`)
    if (changes.length > MAX_CHANGES) items.push(`<li>… and ${changes.length - MAX_CHANGES} more</li>`)
    return `<div class="change-group"><h3>${name} (${changes.length})</h3><ul>${items.join('')}</ul></div>`
  })
  const body = shown.length ? `<div class="change-groups">${lists.join('')}</div>` : ''
  return `<section class="changes"><h2>Since ${escapeHtml(comparison.against)}</h2><p class="target">${summary} · ${comparison.unchanged} unchanged</p>${body}</section>\n`
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
