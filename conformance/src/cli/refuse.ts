/**
 * Pure: a run refused before it starts (a baseline, a --compare or --merge file, a report
 * directory), said once on stderr and, with `--annotations github`, once as an ::error the
 * workflow shows on the file at fault: a CI log is read from its annotations, not its last line.
 */
import { escapeData, escapeProperty } from '../report/annotations.ts'
import { plain } from '../report/line.ts'

export interface Refusal {
  /** One line: what is wrong and how to fix it. */
  message: string
  /** The file at fault, as the reader named it (relative to the working directory when inside it). */
  file?: string
  /** What the annotation's title names after "mcp-conformance". */
  topic?: string
}

/** The stderr line. */
export const refusalLine = (refusal: Refusal) => `mcp-conformance: ${plain(refusal.message)}\n`

/** The ::error workflow command (stdout). */
export function refusalAnnotation(refusal: Refusal): string {
  const file = refusal.file !== undefined ? `file=${escapeProperty(refusal.file)},` : ''
  return `::error ${file}title=${escapeProperty(`mcp-conformance${refusal.topic ? ` ${refusal.topic}` : ''}`)}::${escapeData(refusal.message)}\n`
}
