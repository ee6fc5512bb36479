/**
 * Pure: what changed against a previous run (`--compare FILE`, a results.json). A check is known
 * by its suite (a client scenario once per transport) and its id; it "fails" when its status is
 * fail or error, whether or not the baseline expects it.
 */
import { CHECK_STATUSES, suiteRunLabel, type CheckResult, type CheckStatus, type RunReport, type SuiteResult } from '../model.ts'
import { cut } from '../server/quote.ts'
import { oneLine } from './line.ts'

export interface CheckChange {
  /** `<suite id>` plus ` [<transport>]` when the suite has one: "dotted-names [stdio]", "server [stdio]". */
  suite: string
  check: string
  before?: CheckStatus
  after?: CheckStatus
  /** The current check is a failure the baseline expects. */
  expected?: boolean
}

export interface Comparison {
  /** What the previous run was (the file name as given), for the headings. */
  against: string
  /** Failing now, not failing before. */
  newFailures: CheckChange[]
  /** Failing before, not failing now. */
  fixed: CheckChange[]
  /** Not in the previous run. */
  added: CheckChange[]
  /** In the previous run, not in this one. */
  removed: CheckChange[]
  /** Any other change of status: pass to warn, fail to error, … */
  changed: CheckChange[]
  /** Checks in both runs with the same status. */
  unchanged: number
}

/** Characters of a previous run's suite or check id kept for the comparison. */
const MAX_ID = 200

const failing = (status: CheckStatus | undefined) => status === 'fail' || status === 'error'

export function compareRuns(previous: RunReport, current: RunReport, against: string): Comparison {
  const before = index(previous)
  const after = index(current)
  const comparison: Comparison = { against, newFailures: [], fixed: [], added: [], removed: [], changed: [], unchanged: 0 }
  for (const [key, now] of after) {
    const then = before.get(key)
    const change: CheckChange = { suite: now.suite, check: now.check.id, ...(then ? { before: then.check.status } : {}), after: now.check.status, ...(now.check.expected ? { expected: true } : {}) }
    if (!then) comparison.added.push(change)
    else if (failing(now.check.status) && !failing(then.check.status)) comparison.newFailures.push(change)
    else if (failing(then.check.status) && !failing(now.check.status)) comparison.fixed.push(change)
    else if (then.check.status === now.check.status) comparison.unchanged++
    else comparison.changed.push(change)
  }
  // The previous run's ids reach the summary and report.html only here: the file is untrusted, so they are redacted and bounded like a server's text.
  for (const [key, then] of before) if (!after.has(key)) comparison.removed.push({ suite: cut(then.suite, MAX_ID), check: cut(then.check.id, MAX_ID), before: then.check.status })
  return comparison
}

export function suiteLabel(suite: Pick<SuiteResult, 'id' | 'transport' | 'era'>): string {
  const run = suiteRunLabel(suite)
  return run ? `${suite.id} [${run}]` : suite.id
}

export function hasChanges(comparison: Comparison): boolean {
  return comparison.newFailures.length + comparison.fixed.length + comparison.added.length + comparison.removed.length + comparison.changed.length > 0
}

function index(report: RunReport): Map<string, { suite: string; check: CheckResult }> {
  const map = new Map<string, { suite: string; check: CheckResult }>()
  for (const suite of report.suites) {
    const label = suiteLabel(suite)
    // JSON keeps the two parts apart whatever characters a suite or check id holds.
    for (const check of suite.checks) map.set(JSON.stringify([label, check.id]), { suite: label, check })
  }
  return map
}

/**
 * A previous results.json, checked only as far as the comparison relies on it: a format version
 * this kit reads and suites with checks of a known status. Returns the reason when it is not one,
 * as one line: where the JSON is broken is said with its bytes escaped (line.ts), never raw.
 */
export function parsePreviousResults(text: string): { ok: true; report: RunReport } | { ok: false; error: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, error: `is not JSON (${oneLine((error as Error).message, 200)})` }
  }
  const report = value as Partial<RunReport> | null
  if (typeof report !== 'object' || report === null || report.formatVersion !== 1) return { ok: false, error: 'is not a results.json of format version 1' }
  const problem = suitesProblem(report.suites)
  if (problem) return { ok: false, error: `has suites without ids or checks of a known status: ${problem}` }
  return { ok: true, report: report as RunReport }
}

/** The first field of `suites` the comparison cannot read, by its path (`suites[0].checks[2].status is …`). */
function suitesProblem(suites: unknown): string | undefined {
  if (!Array.isArray(suites)) return 'suites is not an array'
  for (const [i, suite] of (suites as Array<Partial<SuiteResult> | null>).entries()) {
    if (typeof suite?.id !== 'string') return `suites[${i}].id is not a string`
    if (!Array.isArray(suite.checks)) return `suites[${i}].checks is not an array`
    for (const [j, check] of (suite.checks as Array<Partial<CheckResult> | null>).entries()) {
      if (typeof check?.id !== 'string') return `suites[${i}].checks[${j}].id is not a string`
      if (!(CHECK_STATUSES as readonly unknown[]).includes(check.status)) return `suites[${i}].checks[${j}].status is not one of ${CHECK_STATUSES.join(', ')}`
    }
  }
  return undefined
}
