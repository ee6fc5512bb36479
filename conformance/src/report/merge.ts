/**
 * Pure: the suites of another run, made ready to stand beside this run's in one report. The kit
 * cannot run every host in its own process (the DeepSeek harness needs Node 22 and its own
 * packages), so a run there writes its results.json and `--merge LABEL=FILE` brings it in.
 *
 * Each merged suite keeps its checks, and with them the `expected` marks its own baseline gave;
 * its id gets the label as a prefix (`dsh/clean-discovery`), so that neither baseline can match the
 * other's suites, and its stale baseline entries stay stale here. The report is untrusted input
 * like any other: it is checked for shape here, and redacted and escaped like every suite.
 */
import { CHECK_STATUSES, type RunReport, type SuiteResult } from '../model.ts'

export const MERGE_LABEL = /^[a-z0-9][a-z0-9-]{0,31}$/

export interface MergedRun {
  suites: SuiteResult[]
  stale: string[]
}

export function mergeRun(label: string, report: RunReport): MergedRun | string {
  const bad = report.suites.find((suite) => !isMergeable(suite))
  if (bad) return `has a suite that cannot be shown (${JSON.stringify(String(bad.id).slice(0, 80))}: needs title, kind, target, a known transport and checks with a known status)`
  return {
    suites: report.suites.map((suite) => ({ ...suite, id: `${label}/${suite.id}` })),
    stale: (Array.isArray(report.staleBaseline) ? report.staleBaseline : []).map((entry) => `${label}/${String(entry)}`),
  }
}

function isMergeable(suite: SuiteResult): boolean {
  return (
    typeof suite.title === 'string' &&
    (suite.kind === 'client' || suite.kind === 'server') &&
    typeof suite.target === 'string' &&
    typeof suite.durationMs === 'number' &&
    (suite.transport === undefined || suite.transport === 'stdio' || suite.transport === 'http') &&
    suite.checks.every(
      (check) =>
        typeof check.title === 'string' &&
        typeof check.message === 'string' &&
        (CHECK_STATUSES as readonly string[]).includes(check.status) &&
        // A truthy non-boolean ("no") would hide a failure as expected.
        (check.expected === undefined || typeof check.expected === 'boolean'),
    )
  )
}
