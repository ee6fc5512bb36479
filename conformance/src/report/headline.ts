/**
 * Pure: the verdict of a run in words, shared by every human-facing output (console, HTML,
 * Markdown) so they never disagree about what an exit code means for this run.
 */
import type { RunReport } from '../model.ts'

export const VERDICT: Record<RunReport['exitCode'], string> = { 0: 'passed', 1: 'failed', 2: 'could not run' }

/** Baseline-expected failures: they fail, and the run accepts them. */
export function expectedFailures(report: RunReport): number {
  return report.suites.reduce((n, suite) => n + suite.checks.filter((c) => c.status === 'fail' && c.expected).length, 0)
}

/** The exit code in words: what it means for this run, not only in general. */
export function exitMeaning(report: RunReport): string {
  const expected = expectedFailures(report)
  const { fail, error } = report.summary
  const stale = report.staleBaseline.length
  if (report.exitCode === 2) return `Exit code 2: ${count(error, 'check')} could not run (a harness error: the kit failed, which says nothing about the target).`
  if (report.exitCode === 1) {
    const reasons = [fail - expected > 0 ? `${count(fail - expected, 'check')} failed that the baseline does not expect` : '', stale ? `${count(stale, 'baseline entry', 'baseline entries')} ${stale === 1 ? 'is' : 'are'} stale` : '']
    return `Exit code 1: ${reasons.filter(Boolean).join(', and ')}.`
  }
  // A run where every check skipped (a client that could not connect, a server with no feature a
  // check applies to) exits 0 too, but "every check passed" would claim a judgement never made.
  if (report.summary.pass + report.summary.warn + fail === 0) return `Exit code 0, but nothing was judged: ${count(report.summary.skip, 'check')} ${report.summary.skip === 1 ? 'was' : 'were'} skipped (each says why).`
  return `Exit code 0: every check passed${expected ? `, apart from ${count(expected, 'failure')} the baseline expects` : ''}; warnings and skips are allowed.`
}

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
