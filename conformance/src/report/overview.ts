/**
 * Pure: the run at a glance, as the report's matrices and the console summary group it. Client
 * scenarios are rows and transports (per client, when a run judges more than one) columns; server
 * checks are grouped by area as rows, one column per server suite, headed by the spec revision it
 * was judged by (one per revision of a `--spec-version all` run, side by side).
 */
import { suiteRunLabel, type CheckResult, type RunReport, type SuiteResult } from '../model.ts'
import { revisionOfSuite, revisionSummaries, revisionVerdictText } from './revisions.ts'

/** A check's colour: its status, except that a failure the baseline expects has its own. */
export type Tone = 'error' | 'fail' | 'expected' | 'warn' | 'pass' | 'skip'
/**
 * Worst first: what broke the run, a MUST broken that the baseline accepts (still a MUST), a
 * SHOULD broken, then what holds and what did not apply.
 */
export const TONES: Tone[] = ['error', 'fail', 'expected', 'warn', 'pass', 'skip']
export type ToneCounts = Record<Tone, number>

export const toneOf = (check: CheckResult): Tone => (check.status === 'fail' && check.expected ? 'expected' : check.status)

export function tally(checks: CheckResult[]): ToneCounts {
  const counts: ToneCounts = { error: 0, fail: 0, expected: 0, warn: 0, pass: 0, skip: 0 }
  for (const check of checks) counts[toneOf(check)]++
  return counts
}

/** The colour of a group: its worst tone; 'none' for a group without checks. */
export function worstTone(counts: ToneCounts): Tone | 'none' {
  return TONES.find((tone) => counts[tone] > 0) ?? 'none'
}

export interface Cell {
  counts: ToneCounts
  total: number
  tone: Tone | 'none'
  /** Where the detail is: the suite's index in the report, and for server areas the area's index in it. */
  suite: number
  area?: number
}

export interface Matrix {
  columns: string[]
  rows: Array<{ label: string; title?: string; cells: Array<Cell | undefined> }>
  /** Server suites pinned to spec revisions: each column's verdict for its revision, in words. */
  verdicts?: Array<Verdict | undefined>
}

export interface Verdict {
  /** "pass", "fail", "error" or "not supported (offered …)". */
  text: string
  tone: Tone
  revision: string
}

function cell(checks: CheckResult[], suite: number, area?: number): Cell {
  const counts = tally(checks)
  return { counts, total: checks.length, tone: worstTone(counts), suite, ...(area === undefined ? {} : { area }) }
}

/** Client scenarios × transports (× clients, when the run judged several). */
export function clientMatrix(report: RunReport): Matrix | undefined {
  const suites = report.suites.map((suite, index) => ({ suite, index })).filter(({ suite }) => suite.kind === 'client')
  if (suites.length === 0) return undefined
  const targets = new Set(suites.map(({ suite }) => suite.target))
  const columnOf = (suite: SuiteResult) => {
    const transport = suiteRunLabel(suite) ?? 'no transport'
    return targets.size > 1 ? `${suite.target} · ${transport}` : transport
  }
  const columns = [...new Set(suites.map(({ suite }) => columnOf(suite)))].sort(byTransport)
  const rows = new Map<string, Matrix['rows'][number]>()
  for (const { suite, index } of suites) {
    const row = rows.get(suite.id) ?? { label: suite.id, title: suite.title, cells: columns.map(() => undefined) }
    row.cells[columns.indexOf(columnOf(suite))] = cell(suite.checks, index)
    rows.set(suite.id, row)
  }
  return { columns, rows: [...rows.values()] }
}

/** stdio before http, each transport's legacy run before its other era, whatever else the column says. */
function byTransport(a: string, b: string): number {
  const rank = (column: string) => {
    const [transport, era] = column.split(' · ').at(-1)!.split('.')
    return (transport === 'stdio' ? 0 : transport === 'http' ? 2 : 4) + (era ? 1 : 0)
  }
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)
}

/** A server suite's checks by area (the id up to the first "/"), in the order they ran. */
export function areasOf(suite: SuiteResult): Array<{ area: string; checks: CheckResult[] }> {
  const areas = new Map<string, CheckResult[]>()
  for (const check of suite.checks) {
    const area = check.id.split('/')[0] || check.id
    const checks = areas.get(area)
    if (checks) checks.push(check)
    else areas.set(area, [check])
  }
  return [...areas].map(([area, checks]) => ({ area, checks }))
}

/** Server areas × server suites, each column headed by its revision and transport. */
export function serverMatrix(report: RunReport): Matrix | undefined {
  const suites = report.suites.map((suite, index) => ({ suite, index })).filter(({ suite }) => suite.kind === 'server')
  if (suites.length === 0) return undefined
  const columns = suites.map(({ suite }) => [revisionOf(suite), suite.transport].filter(Boolean).join(' · '))
  const rows = new Map<string, Matrix['rows'][number]>()
  suites.forEach(({ suite, index }, column) => {
    areasOf(suite).forEach(({ area, checks }, areaIndex) => {
      const row = rows.get(area) ?? { label: area, cells: columns.map(() => undefined) }
      row.cells[column] = cell(checks, index, areaIndex)
      rows.set(area, row)
    })
  })
  const pinned = suites.map(({ suite }) => revisionSummaries([suite])?.[0])
  if (pinned.every((row) => row === undefined)) return { columns, rows: [...rows.values()] }
  const verdicts = pinned.map((row): Verdict | undefined => (row ? { text: revisionVerdictText(row), tone: !row.supported && row.verdict === 'pass' ? 'skip' : row.verdict, revision: row.revision } : undefined))
  return { columns, rows: [...rows.values()], verdicts }
}

/**
 * The revision a server suite was judged by: the one it was pinned to (--spec-version), else the
 * negotiated one, else the one its checks cite.
 */
export function revisionOf(suite: SuiteResult): string {
  const pinned = revisionOfSuite(suite)
  if (pinned) return pinned.requested
  const negotiated = (suite.checks.find((c) => c.id === 'lifecycle/protocol-version')?.details as { negotiated?: unknown } | undefined)?.negotiated
  if (typeof negotiated === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(negotiated)) return negotiated
  const cited = new Map<string, number>()
  for (const check of suite.checks) {
    const revision = /\bMCP (\d{4}-\d{2}-\d{2})\b/.exec(check.spec?.ref ?? '')?.[1]
    if (revision) cited.set(revision, (cited.get(revision) ?? 0) + 1)
  }
  const [top] = [...cited].sort((a, b) => b[1] - a[1])
  return top ? top[0] : 'revision unknown'
}
