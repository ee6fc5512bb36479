/**
 * Pure: the spec-revision matrix of a run (`mcp-conformance server --spec-version …`). A server
 * suite pinned to one revision carries `revision`; the report adds one summary per such suite, so
 * a reader (or a tool) sees each revision's verdict side by side. Both fields are optional
 * additions to results.json format 1 (RESULTS.md).
 */
import { countStatuses, type RunReport, type StatusCounts, type SuiteResult } from '../model.ts'

/** The revision a pinned server suite asked for, and what became of it. */
export interface SuiteRevision {
  /** The revision the run asked for and judged (`--spec-version`). */
  requested: string
  /** The protocolVersion the server answered with, when it answered initialize with a result. */
  negotiated?: string
  /** False when the server did not take the requested revision (a counter-offer or a refusal): only initialize was judged. */
  supported: boolean
}

export type ServerSuite = SuiteResult & { revision?: SuiteRevision }

/** One revision's verdict in a run that judged several (or one, pinned). */
export interface RevisionSummary {
  revision: string
  /** The suite's id in `suites` (`server@<revision>`). */
  suite: string
  transport?: 'stdio' | 'http'
  negotiated?: string
  supported: boolean
  summary: StatusCounts
  /** error: a check could not run; fail: a failure the baseline does not expect; else pass. */
  verdict: 'pass' | 'fail' | 'error'
}

export type ReportWithRevisions = RunReport & { revisions?: RevisionSummary[] }

export function revisionOfSuite(suite: SuiteResult): SuiteRevision | undefined {
  const revision = (suite as ServerSuite).revision
  return suite.kind === 'server' && revision && typeof revision.requested === 'string' ? revision : undefined
}

/** The summaries of the pinned server suites, in run order; undefined when there are none. */
export function revisionSummaries(suites: SuiteResult[]): RevisionSummary[] | undefined {
  const rows = suites.flatMap((suite) => {
    const revision = revisionOfSuite(suite)
    if (!revision) return []
    const checks = suite.checks
    const verdict: RevisionSummary['verdict'] = checks.some((c) => c.status === 'error') ? 'error' : checks.some((c) => c.status === 'fail' && !c.expected) ? 'fail' : 'pass'
    const row: RevisionSummary = {
      revision: revision.requested,
      suite: suite.id,
      ...(suite.transport ? { transport: suite.transport } : {}),
      ...(revision.negotiated !== undefined ? { negotiated: revision.negotiated } : {}),
      supported: revision.supported,
      summary: countStatuses([suite]),
      verdict,
    }
    return [row]
  })
  return rows.length ? rows : undefined
}

/** The revisions of a report, as written or, for an older file, recomputed from its suites. */
export function revisionsOf(report: RunReport): RevisionSummary[] | undefined {
  return (report as ReportWithRevisions).revisions ?? revisionSummaries(report.suites)
}

/** How a revision's outcome reads in a table cell: "pass", "fail", or "not supported (offered 2025-11-25)". */
export function revisionVerdictText(row: RevisionSummary): string {
  if (row.supported) return row.verdict
  const offered = row.negotiated && row.negotiated !== row.revision ? ` (offered ${row.negotiated})` : ''
  return row.verdict === 'pass' ? `not supported${offered}` : `${row.verdict}; not supported${offered}`
}
