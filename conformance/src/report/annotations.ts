/**
 * Pure: GitHub Actions workflow commands (`::error title=…::message`) for the checks a reader of
 * a pull request should see without opening the report. Unexpected failures, checks that could
 * not run and stale baseline entries are errors; warnings are warnings; failures the baseline
 * expects are notices, so they stay visible without looking like news.
 */
import { suiteRunLabel, type RunReport } from '../model.ts'
import { inline } from './line.ts'

/** One line per annotation, each ending in a newline; '' when there is nothing to say. */
export function formatGithubAnnotations(report: RunReport, maxMessage = 2000): string {
  const lines: string[] = []
  for (const suite of report.suites) {
    const over = suite.kind === 'client' && suite.transport ? ` over ${suiteRunLabel(suite)}` : ''
    for (const check of suite.checks) {
      const title = `mcp-conformance ${bound(suite.id, MAX_ID)}:${bound(check.id, MAX_ID)}${over}`
      const message = bound(check.message, maxMessage)
      if (check.status === 'fail' && check.expected) lines.push(command('notice', `${title} (expected by the baseline)`, message))
      else if (check.status === 'fail') lines.push(command('error', title, message))
      else if (check.status === 'error') lines.push(command('error', `${title} could not run`, message))
      else if (check.status === 'warn') lines.push(command('warning', title, message))
    }
  }
  for (const id of report.staleBaseline) {
    lines.push(command('error', 'mcp-conformance stale baseline entry', `${bound(id, MAX_ID)} no longer fails: remove it from the baseline`))
  }
  return lines.map((line) => `${line}\n`).join('')
}

function command(kind: 'error' | 'warning' | 'notice', title: string, message: string): string {
  return `::${kind} title=${escapeProperty(title)}::${escapeData(message)}`
}

/**
 * The runner reads a workflow command from one line and decodes these escapes (the rules of
 * @actions/core's `issueCommand`): without them a message with a line break would end the command
 * early, and the rest of the line could be read as another command. A line break stays one
 * (`%0A`: the annotation shows it); every other control character is written as its escape, by
 * the rule of the terminal summary (line.ts `inline`), so that an annotation's text neither acts
 * on a terminal that shows the log nor holds a `##[` command (the runner reads one anywhere).
 */
export function escapeData(text: string): string {
  return text
    .replace(/%/g, '%25')
    .split(/(\r|\n)/)
    .map((part, index) => (index % 2 === 1 ? (part === '\r' ? '%0D' : '%0A') : inline(part)))
    .join('')
}

/** Property values also end at `,` (the next property) and `:` (the `::` before the message). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** Characters of a suite id, a check id or a baseline entry in an annotation. */
const MAX_ID = 200

function bound(text: string, max: number): string {
  const chars = Array.from(text)
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text
}
