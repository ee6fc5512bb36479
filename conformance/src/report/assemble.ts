/** Pure: suites + baseline → the versioned RunReport, including the exit code it implies. */
import { redactSecrets } from '@mcp-bridge/process'
import { applyBaseline, type BaselineEntry } from '../baseline.ts'
import { countStatuses, EXIT, FORMAT_VERSION, type RunReport, type SuiteResult } from '../model.ts'
import { redactSuite } from './redact.ts'
import { revisionSummaries, type ReportWithRevisions } from './revisions.ts'

export interface AssembleInput {
  suites: SuiteResult[]
  baseline: BaselineEntry[]
  tool: { name: string; version: string }
  startedAt: string
  durationMs: number
  /** Stale baseline entries of merged runs (merge.ts), already labelled: they fail this run too. */
  mergedStale?: string[]
}

/** `revisions` is present when server suites were pinned to spec revisions (`--spec-version`). */
export function assembleReport(input: AssembleInput): ReportWithRevisions {
  // Suites redact their own configured secrets; this pass catches secret shapes in anything else.
  const redacted = input.suites.map((suite) => redactSuite(suite, redactSecrets))
  const applied = applyBaseline(redacted, input.baseline)
  const suites = applied.suites
  const stale = [...applied.stale, ...(input.mergedStale ?? [])]
  const revisions = revisionSummaries(suites)
  return {
    formatVersion: FORMAT_VERSION,
    tool: input.tool,
    startedAt: input.startedAt,
    durationMs: input.durationMs,
    suites,
    summary: countStatuses(suites),
    staleBaseline: stale,
    exitCode: exitCodeOf(suites, stale),
    ...(revisions ? { revisions } : {}),
  }
}

/**
 * 2 when any check could not run (the verdict is incomplete), else 1 for an unexpected failure
 * or a stale baseline entry, else 0. Warnings and skips never fail a run.
 */
export function exitCodeOf(suites: SuiteResult[], stale: string[]): RunReport['exitCode'] {
  const checks = suites.flatMap((s) => s.checks)
  if (checks.some((c) => c.status === 'error')) return EXIT.usage
  if (stale.length > 0 || checks.some((c) => c.status === 'fail' && !c.expected)) return EXIT.failures
  return EXIT.pass
}

/** A suite standing for a part of the run that could not happen at all (e.g. a thrown runner). */
export function harnessErrorSuite(id: string, title: string, kind: SuiteResult['kind'], target: string, error: unknown): SuiteResult {
  const message = error instanceof Error ? error.message : String(error)
  return {
    id,
    title,
    kind,
    target,
    checks: [{ id: 'harness/run', title: `${title} ran`, status: 'error', message: `could not run: ${message}` }],
    durationMs: 0,
  }
}
