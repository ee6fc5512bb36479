/**
 * Pure: the human-readable lines for stderr. The closing summary groups the run as the report's
 * matrices do (one line per client scenario, with a column per transport; one line per server
 * area), expands what needs a look under its line, and ends with the verdict in words.
 * Colour is opt-in (the caller decides: a terminal, and no NO_COLOR); without it the text has
 * no escape codes at all, also none that a server put in a message: every string from a run
 * (or from a results.json given to --compare or --merge) is one bounded item of one line, with
 * its control characters escaped and GitHub workflow commands defused (line.ts).
 */
import type { CheckResult, CheckStatus, RunReport, SuiteResult } from '../model.ts'
import type { CheckChange, Comparison } from './compare.ts'
import { exitMeaning } from './headline.ts'
import { oneLine, plain } from './line.ts'
import { areasOf, clientMatrix, serverMatrix, tally, toneOf, TONES, worstTone, type Cell, type Matrix, type Tone } from './overview.ts'

const MARK: Record<CheckStatus, string> = { pass: '✓', fail: '✗', warn: '!', skip: '-', error: 'E' }
const TONE_MARK: Record<Tone | 'none', string> = { pass: '✓', fail: '✗', expected: '✗', warn: '!', skip: '-', error: 'E', none: ' ' }
/** SGR colours per tone: green, red, blue, yellow, grey, magenta. */
const SGR: Record<Tone | 'none', string> = { pass: '32', fail: '31', expected: '34', warn: '33', skip: '90', error: '35', none: '90' }

export interface SummaryOptions {
  comparison?: Comparison
  color?: boolean
}

export function progressLine(check: CheckResult): string {
  const expected = check.expected ? ' (expected)' : ''
  return `  ${MARK[check.status]} ${check.status.padEnd(5)} ${oneLine(check.id, MAX_ID)}${expected}${check.status === 'pass' ? '' : ` — ${oneLine(check.message)}`}`
}

export function formatSummary(report: RunReport, written: string[] = [], options: SummaryOptions = {}): string {
  const paint = (text: string, tone: Tone | 'none') => (options.color ? `\x1b[${SGR[tone]}m${text}\x1b[0m` : text)
  const lines: string[] = []
  const client = clientMatrix(report)
  const server = serverMatrix(report)
  const targets = (kind: 'client' | 'server') => items([...new Set(report.suites.filter((s) => s.kind === kind).map((s) => s.target))])
  if (client) lines.push(...matrixLines(`Client scenarios · ${targets('client')}`, client, report, paint))
  if (server) lines.push(...matrixLines(`Server checks · ${targets('server')}`, server, report, paint))
  const s = report.summary
  const expected = report.suites.flatMap((x) => x.checks).filter((c) => c.expected).length
  lines.push('', `Total: ${s.pass} passed, ${s.fail} failed${expected ? ` (${expected} expected by the baseline)` : ''}, ${s.warn} warnings, ${s.skip} skipped, ${s.error} errors`)
  if (options.comparison) lines.push(...changeLines(options.comparison))
  if (report.staleBaseline.length) lines.push(`Stale baseline entries (no longer failing; remove them): ${items(report.staleBaseline)}`)
  if (written.length) lines.push(`Reports: ${written.join(', ')}`)
  lines.push(paint(exitMeaning(report), report.exitCode === 0 ? 'pass' : report.exitCode === 1 ? 'fail' : 'error'))
  return `${lines.join('\n')}\n`
}

type Paint = (text: string, tone: Tone | 'none') => string

/** A heading, then one line per row with a cell per column, and each row's checks that need a look under it. */
function matrixLines(heading: string, matrix: Matrix, report: RunReport, paint: Paint): string[] {
  const areas: Areas = new Map()
  const labels = matrix.rows.map((r) => oneLine(r.label, MAX_ID))
  const label = Math.max(...labels.map((l) => l.length), 8)
  const texts = matrix.rows.map((row) => row.cells.map((cell) => (cell ? cellText(cell) : '—')))
  const columns = matrix.columns.map((column) => oneLine(column, MAX_ID))
  const verdicts = matrix.verdicts?.map((v) => (v ? oneLine(v.text, MAX_ID) : ''))
  const widths = columns.map((column, i) => Math.max(column.length, verdicts?.[i]?.length ?? 0, ...texts.map((t) => t[i]!.length)))
  const lines = ['', heading, `    ${''.padEnd(label)}  ${columns.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd()]
  // One verdict per spec revision, above the areas (a --spec-version run).
  if (matrix.verdicts) lines.push(`    ${'verdict'.padEnd(label)}  ${matrix.verdicts.map((v, i) => paint((verdicts?.[i] ?? '').padEnd(widths[i]!), v?.tone ?? 'none')).join('  ')}`.trimEnd())
  matrix.rows.forEach((row, r) => {
    const present = row.cells.filter((c): c is Cell => c !== undefined)
    const tone = worstTone(tally(present.flatMap((c) => checksOf(c, report, areas))))
    const cells = row.cells.map((cell, i) => paint(texts[r]![i]!.padEnd(widths[i]!), cell ? cell.tone : 'none'))
    lines.push(`  ${paint(TONE_MARK[tone], tone)} ${labels[r]!.padEnd(label)}  ${cells.join('  ')}`.trimEnd())
    for (const [i, cell] of row.cells.entries()) {
      if (!cell) continue
      const where = columns.length > 1 ? ` [${columns[i]}]` : ''
      for (const check of checksOf(cell, report, areas).filter((c) => c.status !== 'pass' && c.status !== 'skip')) {
        lines.push(`      ${paint(`${MARK[check.status]} ${check.status.padEnd(5)}`, toneOf(check))} ${oneLine(check.id, MAX_ID)}${where}${check.expected ? ' (expected)' : ''} — ${oneLine(check.message)}`)
      }
    }
  })
  return lines
}

/** Each suite's areas, found once per summary: a row per area asks for them, and a merged suite can have thousands. */
type Areas = Map<SuiteResult, ReturnType<typeof areasOf>>

function checksOf(cell: Cell, report: RunReport, areas: Areas): CheckResult[] {
  const suite = report.suites[cell.suite]!
  if (cell.area === undefined) return suite.checks
  const found = areas.get(suite) ?? areasOf(suite)
  areas.set(suite, found)
  return found[cell.area]?.checks ?? []
}

/** Worst first: "9 pass", "2 fail, 8 pass", "1 expected, 1 warn, 15 pass". */
function cellText(cell: Cell): string {
  if (cell.tone === 'none') return 'no checks'
  return TONES.filter((tone) => cell.counts[tone] > 0)
    .map((tone) => `${cell.counts[tone]} ${tone}`)
    .join(', ')
}

const MAX_CHANGES = 20

function changeLines(comparison: Comparison): string[] {
  const kinds: Array<[string, string, CheckChange[], (c: CheckChange) => string]> = [
    ['new failure', 'new failures', comparison.newFailures, (c) => `${c.before} → ${c.after}`],
    ['fixed', 'fixed', comparison.fixed, (c) => `${c.before} → ${c.after}`],
    ['new check', 'new checks', comparison.added, (c) => `${c.after}`],
    ['removed', 'removed', comparison.removed, (c) => `was ${c.before}`],
    ['other change', 'other changes', comparison.changed, (c) => `${c.before} → ${c.after}`],
  ]
  const counts = kinds.map(([one, many, changes]) => `${changes.length} ${changes.length === 1 ? one : many}`).join(', ')
  const lines = [`Since ${plain(comparison.against)}: ${counts}; ${comparison.unchanged} unchanged`]
  for (const [one, , changes, status] of kinds) {
    for (const change of changes.slice(0, MAX_CHANGES)) lines.push(`  ${one.padEnd(12)} ${oneLine(change.suite, MAX_ID)}:${oneLine(change.check, MAX_ID)} (${oneLine(status(change), MAX_ID)})`)
    if (changes.length > MAX_CHANGES) lines.push(`  ${one.padEnd(12)} … and ${changes.length - MAX_CHANGES} more (report.html lists them all)`)
  }
  return lines
}

/** Characters of an id, a label or a target shown on a line. */
const MAX_ID = 200

/** Untrusted items, each on its one line and bounded, at most MAX_CHANGES of them. */
function items(list: string[]): string {
  const shown = list.slice(0, MAX_CHANGES).map((item) => oneLine(item, MAX_ID))
  return `${shown.join(', ')}${list.length > MAX_CHANGES ? ` and ${list.length - MAX_CHANGES} more` : ''}`
}
