import type { Plan } from './diff.ts'
import { formatIssue, type LoaderIssue, type ReloadResult } from './types.ts'

export interface LogLine {
  level: 'error' | 'warn' | 'info'
  text: string
}

/** Pure: the log lines of a reload that applied a plan. Values never appear, only ids and field names. */
export function reloadLog(result: ReloadResult, plan: Plan, context: { file: string; first: boolean; running: ReadonlySet<string> }): LogLine[] {
  const lines: LogLine[] = []
  const log = (level: LogLine['level'], text: string) => lines.push({ level, text })
  for (const issue of result.errors) log('error', formatIssue(issue, context.file))
  for (const issue of result.warnings) log('warn', formatIssue(issue, context.file))
  // An entry with errors that is not running is simply not loaded: its error lines say all there
  // is to say. One that runs keeps its previous instance, which the error lines do not tell.
  for (const id of result.held) {
    if (context.running.has(id)) log('warn', `entry "${id}" has errors: its running instance keeps its previous config`)
  }
  for (const entry of plan.add) log('info', `added "${entry.id}" (${entry.name})`)
  const updated = new Set(result.updated)
  for (const change of plan.update) {
    if (!updated.has(change.id)) continue
    if (change.kind === 'replace') log('info', `replaced "${change.id}": now runs ${change.after.name}`)
    else if (change.kind === 'retry') log('info', `restarted "${change.id}" (its last start failed)`)
    else log('info', `updated "${change.id}" (changed: ${change.changed.join(', ')})`)
  }
  for (const entry of plan.remove) log('info', `removed "${entry.id}"`)
  const counts = `${result.added.length} added, ${result.updated.length} updated, ${result.removed.length} removed, ${result.unchanged.length} unchanged`
  const trouble = result.ok ? '' : `; ${result.errors.length} error(s)`
  log('info', `${context.first ? 'loaded' : 'reloaded'} ${context.file}: ${counts}${trouble}`)
  return lines
}

/** Pure: the log line of a reload that could not use the file at all. */
export function fileFailureLog(error: LoaderIssue, file: string, running: number): LogLine {
  return { level: 'error', text: `${formatIssue(error, file)}; kept the ${running} running entries as they were` }
}
