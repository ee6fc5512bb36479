/** The thin I/O edge: writes the three reports of one run into a directory. */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { RunReport } from '../model.ts'
import { formatHtml, type HtmlOptions } from './html.ts'
import { formatJson } from './json.ts'
import { formatJunit } from './junit.ts'

export const REPORT_FILES = { json: 'results.json', junit: 'junit.xml', html: 'report.html' } as const

/** Pure: the three reports' texts by file name. `html`: what report.html shows beyond the report (a comparison). */
export function formatReports(report: RunReport, html: HtmlOptions = {}): Record<(typeof REPORT_FILES)[keyof typeof REPORT_FILES], string> {
  return { [REPORT_FILES.json]: formatJson(report), [REPORT_FILES.junit]: formatJunit(report), [REPORT_FILES.html]: formatHtml(report, html) }
}

/** Returns the written paths. `texts`: formatReports' (formatted here when not given). */
export async function writeReports(report: RunReport, dir: string, html: HtmlOptions = {}, texts = formatReports(report, html)): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const files = Object.entries(texts).map(([name, text]) => [join(dir, name), text] as const)
  await Promise.all(files.map(([path, text]) => writeFile(path, text, 'utf8')))
  return files.map(([path]) => path)
}
