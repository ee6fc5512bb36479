#!/usr/bin/env node
/**
 * The step of the repository's action.yml: inputs (INPUT_* environment variables) in, one
 * `mcp-conformance server` run, then the job-page summary ($GITHUB_STEP_SUMMARY), the step outputs
 * ($GITHUB_OUTPUT) and the kit's exit code. Plain JavaScript without dependencies, because the
 * action runs from a checkout of this repository that is never installed or built.
 *
 * MCP_CONFORMANCE_KIT overrides the kit's command line (shell words); the default is
 * `npx --yes @mcp-bridge/conformance@<version>`. The tests point it at the local build.
 */
import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

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

function kitCommand() {
  if (process.env.MCP_CONFORMANCE_KIT) return shellWords(process.env.MCP_CONFORMANCE_KIT, 'MCP_CONFORMANCE_KIT')
  const version = input('VERSION')
  if (!version) throw new InputError('version is empty')
  return ['npx', '--yes', `@mcp-bridge/conformance@${version}`]
}

/** Runs the kit with the step's stdout and stderr: its annotations and progress land in the log. */
function run(argv) {
  process.stderr.write(`mcp-conformance action: ${argv.map((a) => JSON.stringify(a)).join(' ')}\n`)
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit' })
    child.once('error', (error) => {
      process.stdout.write(`::error title=mcp-conformance action::cannot start ${argv[0]}: ${error.message}\n`)
      resolve(2)
    })
    // A kit killed by a signal gave no verdict: exit 2, like a check that could not run.
    child.once('exit', (code, signal) => resolve(signal ? 2 : (code ?? 2)))
  })
}

/** Step outputs and the job-page summary, from the files this run wrote (none after a usage error). */
function publish(reportDir) {
  const summary = join(reportDir, 'summary.md')
  if (process.env.GITHUB_STEP_SUMMARY && existsSync(summary)) appendFileSync(process.env.GITHUB_STEP_SUMMARY, readFileSync(summary))
  const results = join(reportDir, 'results.json')
  if (!process.env.GITHUB_OUTPUT || !existsSync(results)) return
  const { summary: counts } = JSON.parse(readFileSync(results, 'utf8'))
  const outputs = { passed: counts.pass, failed: counts.fail, warnings: counts.warn, report: join(reportDir, 'report.html') }
  appendFileSync(process.env.GITHUB_OUTPUT, Object.entries(outputs).map(([key, value]) => `${key}=${value}\n`).join(''))
}

async function main() {
  const reportDir = input('REPORT_DIR') || 'mcp-conformance-reports'
  let argv
  try {
    argv = [...kitCommand(), ...serverArgs(reportDir)]
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    process.stdout.write(`::error title=mcp-conformance action::${error.message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`)
    return 2
  }
  // Files of an earlier run in the same directory must not pass for this run's results.
  for (const name of ['results.json', 'summary.md']) rmSync(join(reportDir, name), { force: true })
  const code = await run(argv)
  publish(reportDir)
  return code
}

process.exitCode = await main()
