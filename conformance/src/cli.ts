/**
 * mcp-conformance: argv in, runs out, exit code back. Parsing is pure (`cli/parse.ts`); `main`
 * runs the suites, writes the reports and prints progress and the summary to stderr.
 * Exit codes: 0 all pass (warn/skip allowed), 1 a failure or a stale baseline entry,
 * 2 invalid usage or a check that could not run.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadBaseline, type BaselineEntry } from './baseline.ts'
import { usageErrorText } from './cli/argv.ts'
import { parseCommand, USAGE, type Command, type RunOptions } from './cli/parse.ts'
import { listScenarios, runClientScenarios, type ClientRunOptions } from './client/index.ts'
import { EXIT, type RunReport, type SuiteResult } from './model.ts'
import { formatGithubAnnotations } from './report/annotations.ts'
import { assembleReport, harnessErrorSuite } from './report/assemble.ts'
import { formatMarkdownSummary } from './report/markdown.ts'
import { formatSummary, progressLine } from './report/summary.ts'
import { writeReports } from './report/write.ts'
import { runServerSuite } from './server/run.ts'
import { everythingTarget } from './server/target.ts'

export { parseCommand, USAGE, type Command, type ParseResult } from './cli/parse.ts'

export interface Io {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
}

const defaultIo: Io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), cwd: process.cwd() }

/** Runs one invocation and returns its exit code. Never throws. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const parsed = parseCommand(argv, io.cwd)
  if (!parsed.ok) {
    io.stderr(usageErrorText('mcp-conformance', parsed.error))
    return EXIT.usage
  }
  const command = parsed.command
  if (command.kind === 'help') {
    io.stdout(USAGE)
    return EXIT.pass
  }
  if (command.kind === 'version') {
    io.stdout(`${TOOL.name} ${TOOL.version}\n`)
    return EXIT.pass
  }
  if (command.kind === 'list') {
    try {
      for (const scenario of await listScenarios()) io.stdout(`${scenario.id}\t${scenario.title}\n`)
      return EXIT.pass
    } catch (error) {
      io.stderr(`mcp-conformance: cannot list scenarios: ${messageOf(error)}\n`)
      return EXIT.usage
    }
  }
  let baseline: BaselineEntry[] = []
  const baselinePath = command.baseline ?? (command.kind === 'default' ? DEFAULT_BASELINE : undefined)
  if (baselinePath) {
    const loaded = await loadBaseline(baselinePath)
    if (!loaded.ok) {
      io.stderr(`mcp-conformance: baseline ${loaded.error}\n`)
      return EXIT.usage
    }
    baseline = loaded.entries
  }
  const startedAt = new Date()
  const started = performance.now()
  const suites = await runSuites(command, io)
  const report = assembleReport({ suites, baseline, tool: TOOL, startedAt: startedAt.toISOString(), durationMs: Math.round(performance.now() - started) })
  return await publish(report, command, io)
}

/** The run's outputs: the report files, the optional Markdown summary and annotations, the summary on stderr. */
async function publish(report: RunReport, command: RunOptions, io: Io): Promise<number> {
  // Annotations first: a CI log shows them even when a file below cannot be written.
  if (command.annotations === 'github') io.stdout(formatGithubAnnotations(report))
  let written: string[] = []
  try {
    written = await writeReports(report, command.reportDir)
  } catch (error) {
    io.stderr(`${formatSummary(report)}mcp-conformance: cannot write reports to ${command.reportDir}: ${messageOf(error)}\n`)
    return EXIT.usage
  }
  if (command.summaryMd) {
    try {
      await mkdir(dirname(command.summaryMd), { recursive: true })
      await writeFile(command.summaryMd, formatMarkdownSummary(report), 'utf8')
      written.push(command.summaryMd)
    } catch (error) {
      io.stderr(`${formatSummary(report, written)}mcp-conformance: cannot write the Markdown summary to ${command.summaryMd}: ${messageOf(error)}\n`)
      return EXIT.usage
    }
  }
  io.stderr(formatSummary(report, written))
  return report.exitCode
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

const TOOL = { name: 'mcp-conformance', version: (createRequire(import.meta.url)('../package.json') as { version: string }).version }
const DEFAULT_BASELINE = fileURLToPath(new URL('../examples/default.baseline.yaml', import.meta.url))

async function runSuites(command: Extract<Command, { reportDir: string }>, io: Io): Promise<SuiteResult[]> {
  const onCheck = (check: Parameters<typeof progressLine>[0]) => io.stderr(`${progressLine(check)}\n`)
  const suites: SuiteResult[] = []
  if (command.kind === 'client' || command.kind === 'default') {
    const options = command.kind === 'client' ? command.options : { transports: command.transports, scenarioIds: [], updateSnapshots: false }
    io.stderr(`mcp-conformance: client scenarios (${options.transports.join(', ')})\n`)
    suites.push(...(await clientSuites(options, io)))
  }
  if (command.kind === 'server' || command.kind === 'default') {
    const { target, calls } = command.kind === 'server' ? command : everythingTarget()
    const serverName = command.kind === 'server' ? command.serverName : undefined
    const options = { calls, onCheck, requestTimeoutMs: command.timeoutMs, startupTimeoutMs: command.startupTimeoutMs, ...(serverName ? { serverName } : {}) }
    io.stderr(`mcp-conformance: server checks against ${target.kind === 'http' ? target.url : [target.command, ...target.args].join(' ')}\n`)
    suites.push(await runServerSuite(target, options))
  }
  return suites
}

async function clientSuites(options: Omit<ClientRunOptions, 'onProgress'>, io: Io): Promise<SuiteResult[]> {
  try {
    return await runClientScenarios({ ...options, onProgress: (line) => io.stderr(`  ${line}\n`) })
  } catch (error) {
    // Until (or unless) the client runner works, the run still reports, as a harness error.
    return [harnessErrorSuite('client', 'Client scenarios', 'client', 'mcp-bridge plugin', error)]
  }
}
