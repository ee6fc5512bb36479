/**
 * What the action's steps say to GitHub's runner: step outputs, annotations and the job-page
 * summary. Plain JavaScript without dependencies, like the steps: it runs before the kit is
 * installed, so it cannot import the kit's own writers (src/report/annotations.ts, markdown.ts);
 * action.test.ts holds these to the same escapes as those.
 */
import { appendFileSync } from 'node:fs'

/** Untrusted text (npm's or the kit's stderr) as one bounded line: controls become spaces. */
export function oneLine(text, max = 500) {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const flat = String(text).replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat)
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : flat
}

/** The runner's decoding of a workflow command's message (%, CR, LF), and `##[` defused as the kit does. */
export function escapeData(text) {
  return String(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/##\[/g, '#\\x23[')
}

/** A property value also ends at `,` and `:`. */
export function escapeProperty(text) {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** One `::error` line on stdout, where the runner reads workflow commands. */
export function annotateError(message, properties = {}) {
  const props = Object.entries({ title: 'mcp-conformance action', ...properties })
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',')
  process.stdout.write(`::error ${props}::${escapeData(message)}\n`)
}

/** Appends step outputs; every value is one line, so the `key=value` form needs no delimiter. */
export function setOutputs(outputs) {
  if (!process.env.GITHUB_OUTPUT) return
  appendFileSync(process.env.GITHUB_OUTPUT, Object.entries(outputs).map(([key, value]) => `${key}=${oneLine(value, 2000)}\n`).join(''))
}

/** Appends Markdown to the job page. */
export function appendSummary(markdown) {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown)
}

/** Untrusted text as a fenced code block: nothing in it is read as Markdown or HTML. */
export function codeBlock(text) {
  const longest = Math.max(2, ...[...String(text).matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}text\n${text}\n${fence}\n`
}
