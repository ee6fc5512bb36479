/** Pure: the results.json document (the RunReport as is; see conformance/RESULTS.md). */
import type { RunReport } from '../model.ts'

export function formatJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}
