/** The thin I/O edge: writes the three reports of one run into a directory. */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { RunReport } from '../model.ts'
import { formatHtml, type HtmlOptions } from './html.ts'
import { formatJson } from './json.ts'
import { formatJunit } from './junit.ts'

export const REPORT_FILES = { json: 'results.json', junit: 'junit.xml', html: 'report.html' } as const

/** Returns the written paths. `html`: what report.html shows beyond the report (a comparison). */
export async function writeReports(report: RunReport, dir: string, html: HtmlOptions = {}): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const files: Array<[string, string]> = [
    [join(dir, REPORT_FILES.json), formatJson(report)],
    [join(dir, REPORT_FILES.junit), formatJunit(report)],
    [join(dir, REPORT_FILES.html), formatHtml(report, html)],
  ]
  await Promise.all(files.map(([path, text]) => writeFile(path, text, 'utf8')))
  return files.map(([path]) => path)
}
