#!/usr/bin/env node
/**
 * The run step of the repository's action.yml: inputs (INPUT_* environment variables) in, one
 * `mcp-conformance server` run, then the job-page summary ($GITHUB_STEP_SUMMARY), the step outputs
 * ($GITHUB_OUTPUT) and the kit's exit code. Plain JavaScript without dependencies: it also has to
 * report a kit that was never installed.
 *
 * The kit is the one kit.mjs built in the action's checkout; only a version input runs
 * `npx --yes @mcp-bridge/conformance@<that exact version>` instead. Whatever stops the kit from
 * judging (the install failed, it cannot start, it refused its arguments, it ended without
 * results) is exit 2 with an ::error annotation, a summary that says why and every output set:
 * a 1 is only ever a verdict on the server.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { annotateError, appendSummary, codeBlock, oneLine, setOutputs } from './github.mjs'
import { KIT_BIN } from './kit.mjs'

/** Thrown for inputs that make no run: reported as an annotation, exit 2 like any usage error. */
class InputError extends Error {}

const input = (name) => (process.env[`INPUT_${name}`] ?? '').trim()

/**
 * Splits a command line the way a POSIX shell splits words, without running a shell: quotes and
 * backslashes work; `$`, backticks, pipes, `;`, `&`, redirections and parentheses are refused
 * unquoted, since without a shell they would silently become literal arguments.
 */
function shellWords(text, what) {
  const words = []
  let word = null
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "'") {
      const end = text.indexOf("'", i + 1)
      if (end < 0) throw new InputError(`${what}: a ' quote is not closed`)
      word = (word ?? '') + text.slice(i + 1, end)
      i = end
    } else if (c === '"') {
      word ??= ''
      for (i++; text[i] !== '"'; i++) {
        if (i >= text.length) throw new InputError(`${what}: a " quote is not closed`)
        // Inside double quotes a backslash escapes only these, as in sh; before a line break it joins lines.
        if (text[i] === '\\' && '"\\$`\n'.includes(text[i + 1] ?? '')) {
          i++
          if (text[i] === '\n') continue
        }
        word += text[i]
      }
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new InputError(`${what}: ends with a lone backslash`)
      i++
      if (text[i] !== '\n') word = (word ?? '') + text[i]
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word)
      word = null
    } else if ('$`|;&<>()'.includes(c)) {
      throw new InputError(`${what}: unquoted ${c} — the command is not run by a shell; quote it to pass it literally, or run a script`)
    } else {
      word = (word ?? '') + c
    }
  }
  if (word !== null) words.push(word)
  return words
}

/** The arguments of `mcp-conformance server`, built from the action's inputs. */
function serverArgs(reportDir) {
  const command = input('COMMAND')
  const url = input('URL')
  if (command && url) throw new InputError('give either command or url, not both')
  if (!command && !url) throw new InputError('give command (a stdio server) or url (a Streamable HTTP server)')
  const args = ['server', '--report-dir', reportDir, '--summary-md', join(reportDir, 'summary.md'), '--annotations', 'github']
  if (input('BASELINE')) args.push('--baseline', input('BASELINE'))
  for (const line of input('CALLS').split('\n')) {
    if (line.trim()) args.push('--call', line.trim())
  }
  args.push(...shellWords(input('ARGS'), 'args'))
  if (url) return [...args, '--url', url]
  const argv = shellWords(command, 'command')
  if (argv.length === 0) throw new InputError('command: no words')
  return [...args, '--', ...argv]
}

/** An exact version (1.2.3, 1.2.3-rc.1): a range or a dist-tag could resolve to code nobody chose. */
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/

function kitCommand() {
  const version = input('VERSION')
  if (!version) return [process.execPath, KIT_BIN]
  if (!EXACT_VERSION.test(version)) throw new InputError(`version ${JSON.stringify(oneLine(version, 60))} is not an exact version such as 0.1.0 (no ranges or tags); leave it empty to run the kit of the action's own checkout`)
  return ['npx', '--yes', `@mcp-bridge/conformance@${version}`]
}

/** What the kit's stderr ended with: the reason it gives when it refuses or dies. */
const TAIL_CHARS = 4_000

/**
 * Runs the kit with its stdout and stderr passed through to the step's: its annotations and
 * progress land in the log. Keeps the end of its stderr, and whether it wrote an ::error itself.
 */
function run(argv) {
  process.stderr.write(`mcp-conformance action: ${argv.map((a) => JSON.stringify(a)).join(' ')}\n`)
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
    let tail = ''
    let line = ''
    let annotated = false
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk)
      const lines = (line + chunk.toString('utf8')).split('\n')
      line = lines.pop().slice(-200)
      if (lines.some((l) => l.startsWith('::error'))) annotated = true
    })
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk)
      tail = (tail + chunk.toString('utf8')).slice(-TAIL_CHARS)
    })
    child.once('error', (error) => resolve({ code: null, startError: error.message, tail, annotated }))
    child.once('close', (code, signal) => resolve({ code, signal, tail, annotated: annotated || line.startsWith('::error') }))
  })
}

/** This run's results.json, when the kit got as far as a verdict. */
function resultsOf(reportDir) {
  const path = join(reportDir, 'results.json')
  if (!existsSync(path)) return undefined
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

/** The last line the kit wrote on stderr that says something. */
const lastLine = (tail) => oneLine(tail.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('run `mcp-conformance --help`')).pop() ?? '', 500)

/** Why the kit gave no verdict, in one line, from how it ended. */
function whyNoVerdict(argv, outcome) {
  if (outcome.startError !== undefined) return `cannot start the kit (${argv[0]}): ${oneLine(outcome.startError)}`
  const said = lastLine(outcome.tail)
  const ended = outcome.signal ? `was killed by ${outcome.signal}` : `exited ${outcome.code}`
  if (outcome.code === 2 && said.startsWith('mcp-conformance:')) return `the kit could not run: ${said.slice('mcp-conformance:'.length).trim()}`
  return `the kit ${ended} without a verdict (no results.json)${said ? `: ${said}` : ''}`
}

/** The one way this step ends without the kit's verdict: exit 2, an annotation, a summary, the outputs. */
function couldNotRun(reason, { annotated = false, detail = '' } = {}) {
  if (!annotated) annotateError(reason)
  appendSummary(`## ${COULD_NOT_RUN}\n\nExit code 2: ${escapeText(reason)}\n${detail ? `\n${codeBlock(detail)}` : ''}`)
  setOutputs({ 'exit-code': 2, passed: 0, failed: 0, warnings: 0, report: '' })
  return 2
}

/** The kit's own headline for exit 2 (src/report/markdown.ts; action.test.ts holds them equal). */
export const COULD_NOT_RUN = '⚠️ MCP conformance: could not run'

/** One line of our own words with untrusted parts (paths, npm's words): nothing in it is Markdown. */
const escapeText = (text) => oneLine(text, 1000).replace(/[\\`*_[\]<>|~&$!#]/g, '\\$&')

/** Step outputs and the job-page summary, from the files this run wrote. */
function publish(reportDir, report, code) {
  const summary = join(reportDir, 'summary.md')
  if (existsSync(summary)) appendSummary(readFileSync(summary, 'utf8'))
  const counts = report.summary ?? {}
  setOutputs({ 'exit-code': code, passed: counts.pass ?? 0, failed: counts.fail ?? 0, warnings: counts.warn ?? 0, report: join(reportDir, 'report.html') })
}

async function main() {
  const reportDir = input('REPORT_DIR') || 'mcp-conformance-reports'
  let argv
  try {
    argv = [...kitCommand(), ...serverArgs(reportDir)]
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return couldNotRun(error.message)
  }
  // The install step (kit.mjs) reports its failure here, where the summary and the outputs are written.
  if (!input('VERSION') && process.env.KIT_INSTALL_OK === 'false') return couldNotRun(`cannot install the kit from the action's checkout: ${oneLine(process.env.KIT_INSTALL_ERROR ?? 'no reason given')}`)
  // Files of an earlier run in the same directory must not pass for this run's results.
  for (const name of ['results.json', 'summary.md']) rmSync(join(reportDir, name), { force: true })
  const outcome = await run(argv)
  const report = resultsOf(reportDir)
  // A verdict is a results.json that agrees with the exit code; anything else is no verdict.
  if (report && report.exitCode === outcome.code) {
    publish(reportDir, report, outcome.code)
    return outcome.code
  }
  return couldNotRun(whyNoVerdict(argv, outcome), { annotated: outcome.annotated, detail: outcome.tail.trim() ? outcome.tail.trim().slice(-2_000) : '' })
}

process.exitCode = await main()
