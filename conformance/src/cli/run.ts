/**
 * Everything a parsed command does once it is more than --help or --version: list the scenarios,
 * load the baseline, run the suites, write the reports, print the summary. Loaded on demand by
 * cli.ts, so the runners (the SDK, the plugin, the fixtures) cost nothing until a run needs them;
 * each mode's runner loads only for a run of that mode (client-mode.ts, the server runner below).
 */
import { constants } from 'node:fs'
import { access, mkdir, stat, writeFile } from 'node:fs/promises'
import { InputFileError, nearestWord, readInputFile } from '@mcp-bridge/process'
import { dirname, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { failuresOf, formatBaseline, loadBaseline, type BaselineEntry } from '../baseline.ts'
import { defaultJobs } from '../client/pool.ts'
import { listScenarios, loadClientScenarios, runClientScenarios, type ClientRunOptions, type LoadedScenario } from './client-mode.ts'
import { EXIT, type RunReport, type SuiteResult } from '../model.ts'
import { formatGithubAnnotations } from '../report/annotations.ts'
import { assembleReport, harnessErrorSuite } from '../report/assemble.ts'
import { compareRuns, parsePreviousResults, type Comparison } from '../report/compare.ts'
import { mergeRun, type MergedRun } from '../report/merge.ts'
import { formatMarkdownSummary } from '../report/markdown.ts'
import { plain } from '../report/line.ts'
import { formatSummary, progressLine } from '../report/summary.ts'
import { formatReports, writeReports } from '../report/write.ts'
import { describeTarget, everythingTarget } from '../server/target.ts'
import type { Io } from './io.ts'
import { TOOL } from './tool.ts'
import type { Command, RunOptions } from './parse.ts'
import { refusalAnnotation, refusalLine, type Refusal } from './refuse.ts'
import { LiveLine, useColor } from './terminal.ts'

/** Runs a parsed command other than help and version; returns the exit code. */
export async function runCommand(command: Exclude<Command, { kind: 'help' | 'version' }>, io: Io): Promise<number> {
  if (command.kind === 'list') {
    try {
      for (const scenario of await listScenarios()) io.stdout(`${scenario.id}\t${scenario.title}\n`)
      return EXIT.pass
    } catch (error) {
      io.stderr(`mcp-conformance: cannot list scenarios: ${plain(messageOf(error))}\n`)
      return EXIT.usage
    }
  }
  const refuse = (refusal: Refusal) => {
    if (command.annotations === 'github') io.stdout(refusalAnnotation(refusal))
    io.stderr(refusalLine(refusal))
    return EXIT.usage
  }
  let baseline: BaselineEntry[] = []
  const baselinePath = command.baseline ?? (command.kind === 'default' ? DEFAULT_BASELINE : undefined)
  if (baselinePath) {
    const loaded = await loadBaseline(baselinePath)
    // A baseline that does not exist yet is the one this run is asked to write: it starts empty.
    const creating = !loaded.ok && 'missing' in loaded && command.writeBaseline === baselinePath
    if (!loaded.ok && !creating) return refuse(baselineRefusal(loaded, baselinePath, io.cwd))
    baseline = loaded.ok ? loaded.entries : []
  }
  // Read before the run, like the baseline: a run that ends in a usage error is time lost.
  let previous: RunReport | undefined
  if (command.compare) {
    const loaded = await loadPrevious(command.compare)
    if (typeof loaded === 'string') return refuse({ message: `--compare ${command.compare} ${loaded}`, file: shortPath(command.compare, io.cwd) })
    previous = loaded
  }
  const checked = await preflight(command)
  if ('refused' in checked) return refuse({ message: checked.refused })
  const merged: MergedRun[] = []
  for (const { label, path } of command.merge) {
    const loaded = await loadPrevious(path)
    const run = typeof loaded === 'string' ? loaded : mergeRun(label, loaded)
    if (typeof run === 'string') return refuse({ message: `--merge ${label}=${path} ${run}`, file: shortPath(path, io.cwd) })
    merged.push(run)
  }
  const startedAt = new Date()
  const started = performance.now()
  const suites = [...(await runSuites(command, io, checked.scenarios)), ...merged.flatMap((run) => run.suites)]
  const report = assembleReport({
    suites,
    baseline,
    tool: TOOL,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    mergedStale: merged.flatMap((run) => run.stale),
  })
  const comparison = previous && command.compare ? compareRuns(previous, report, shortPath(command.compare, io.cwd)) : undefined
  const code = await publish(report, command, io, comparison)
  return command.writeBaseline ? await writeBaseline(report, baseline, command.writeBaseline, io, code) : code
}

/** A baseline that does not load: the file at fault, and for one that does not exist, how to make it. */
function baselineRefusal(loaded: { error: string; missing?: true }, path: string, cwd: string): Refusal {
  const file = shortPath(path, cwd)
  if (!loaded.missing) return { message: `baseline ${loaded.error}`, file, topic: 'baseline' }
  return {
    message: `baseline ${file} does not exist: create it from a run's failures by adding --write-baseline ${file} to this command once, or start from a file holding "expectedFailures: []"`,
    file,
    topic: 'baseline',
  }
}

/**
 * --write-baseline: this run's failures as a baseline file, reasons kept from the one it ran with.
 * Not written when a check could not run: its failures are unknown, and a baseline without them
 * would fail the next run. The exit code stays the run's own, or 2 when the file cannot be written.
 */
async function writeBaseline(report: RunReport, previous: BaselineEntry[], path: string, io: Io, code: number): Promise<number> {
  if (report.summary.error > 0) {
    io.stderr(`mcp-conformance: no baseline written to ${path}: ${report.summary.error === 1 ? '1 check' : `${report.summary.error} checks`} could not run, so the failures are not all known\n`)
    return code
  }
  const entries = failuresOf(report.suites, previous)
  try {
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, formatBaseline(entries, `Written by ${TOOL.name} ${TOOL.version} --write-baseline`), 'utf8')
  } catch (error) {
    io.stderr(`mcp-conformance: cannot write the baseline to ${path}: ${plain(messageOf(error))}\n`)
    return EXIT.usage
  }
  const file = shortPath(path, io.cwd)
  io.stderr(`Baseline: ${file} lists ${entries.length === 1 ? '1 failure' : `${entries.length} failures`}; run with --baseline ${file} to accept them\n`)
  return code
}

/**
 * What would only fail after the run, checked before it (a default run takes a minute or more):
 * the report directory can be written, the scenarios named exist, snapshots may be written, the
 * wire log to judge exists. A reason to refuse, or undefined.
 */
async function preflight(command: Exclude<Command, { kind: 'help' | 'version' | 'list' }>): Promise<{ refused: string } | { scenarios?: LoadedScenario[] }> {
  const why = await refusal(command)
  return typeof why === 'string' ? { refused: why } : why
}

/** preflight's checks: a reason to refuse, or the scenarios they loaded (for a run that has any). */
async function refusal(command: Exclude<Command, { kind: 'help' | 'version' | 'list' }>): Promise<string | { scenarios?: LoadedScenario[] }> {
  const unwritable = await unwritableDirectory(command.reportDir)
  if (unwritable) return `cannot write reports to ${command.reportDir}: ${unwritable} (choose another --report-dir)`
  if (command.summaryMd) {
    const dir = dirname(command.summaryMd)
    const problem = await unwritableDirectory(dir)
    if (problem) return `cannot write the Markdown summary to ${command.summaryMd}: ${dir} ${problem}`
  }
  // A scenario file that does not read is its one line (load.ts), before anything runs.
  let scenarios: LoadedScenario[] | undefined
  if (command.kind === 'client' || command.kind === 'default' || (command.kind === 'judge' && command.scenario !== undefined)) {
    try {
      scenarios = await loadClientScenarios()
    } catch (error) {
      return messageOf(error)
    }
  }
  const known = (scenarios ?? []).map(({ scenario }) => scenario.id)
  if (command.kind === 'client') {
    if (command.options.updateSnapshots && process.env.CI === 'true') return '--update-snapshots is refused when CI=true: update snapshots locally and commit them'
    const unknown = command.options.scenarioIds.filter((id) => !known.includes(id))
    if (unknown.length) return `${unknown.map((id) => `no scenario with id ${JSON.stringify(id)}${didYouMean(id, known)}`).join('; ')} (see: mcp-conformance list)`
  }
  if (command.kind === 'judge') {
    const missing = await stat(command.wire).then(
      (info) => (info.isFile() ? undefined : 'is not a file'),
      () => 'does not exist',
    )
    if (missing) return `--wire ${command.wire} ${missing}: start the fixture with --wire ${command.wire} and let the client work first`
    if (command.scenario !== undefined) {
      if (!known.includes(command.scenario)) return `no scenario with id ${JSON.stringify(command.scenario)}${didYouMean(command.scenario, known)} (see: mcp-conformance list)`
    }
  }
  return scenarios ? { scenarios } : {}
}

/** Why reports cannot go to `dir` (created if missing), or undefined. */
async function unwritableDirectory(dir: string): Promise<string | undefined> {
  try {
    await mkdir(dir, { recursive: true })
    const info = await stat(dir)
    if (!info.isDirectory()) return 'it is not a directory'
    await access(dir, constants.W_OK)
    return undefined
  } catch (error) {
    const code = (error as { code?: unknown }).code
    return code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of the path is a file, not a directory' : code === 'EACCES' ? 'permission denied' : messageOf(error)
  }
}

/** `; did you mean "x"?` for a known id close enough to be a typo of `id`, or nothing. */
function didYouMean(id: string, known: readonly string[]): string {
  const nearest = nearestWord(id, known)
  return nearest ? `; did you mean ${JSON.stringify(nearest)}?` : ''
}

/** A results.json (of --compare or --merge): bounded, and never a FIFO or a device that would block the run. */
async function loadPrevious(path: string): Promise<RunReport | string> {
  let text: string
  try {
    text = await readInputFile(path, { maxBytes: MAX_RESULTS_BYTES, what: 'file' })
  } catch (error) {
    return error instanceof InputFileError ? error.reason : `cannot be read: ${messageOf(error)}`
  }
  const parsed = parsePreviousResults(text)
  return parsed.ok ? parsed.report : parsed.error
}

/** The path as a reader typed it, more or less: relative to the working directory when inside it. */
function shortPath(path: string, cwd: string): string {
  const rel = relative(cwd, path)
  return rel && !rel.startsWith('..') ? rel : path
}

/** The run's outputs: the report files, the optional Markdown summary and annotations, the summary on stderr. */
async function publish(report: RunReport, command: RunOptions, io: Io, comparison?: Comparison): Promise<number> {
  const summary = (written: string[] = []) => formatSummary(report, written, { comparison, color: useColor(process.env, io.terminal !== undefined) })
  // Annotations first: a CI log shows them even when a file below cannot be written.
  if (command.annotations === 'github') io.stdout(formatGithubAnnotations(report))
  let texts: ReturnType<typeof formatReports>
  try {
    texts = formatReports(report, { comparison })
  } catch (error) {
    // Not the file system: the report itself (merge.ts checks what a merged file holds before the run).
    io.stderr(`${summary()}mcp-conformance: cannot format the reports (a bug in the kit: please report it): ${plain(messageOf(error))}\n`)
    return EXIT.usage
  }
  let written: string[] = []
  try {
    written = await writeReports(report, command.reportDir, { comparison }, texts)
  } catch (error) {
    io.stderr(`${summary()}mcp-conformance: cannot write reports to ${command.reportDir}: ${plain(messageOf(error))}\n`)
    return EXIT.usage
  }
  if (command.summaryMd) {
    try {
      await mkdir(dirname(command.summaryMd), { recursive: true })
      await writeFile(command.summaryMd, formatMarkdownSummary(report), 'utf8')
      written.push(command.summaryMd)
    } catch (error) {
      io.stderr(`${summary(written)}mcp-conformance: cannot write the Markdown summary to ${command.summaryMd}: ${plain(messageOf(error))}\n`)
      return EXIT.usage
    }
  }
  io.stderr(summary(written))
  return report.exitCode
}

/** A results.json with every transcript of a full run is a few MB; this leaves room for large ones. */
const MAX_RESULTS_BYTES = 256 * 1024 * 1024

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

const DEFAULT_BASELINE = fileURLToPath(new URL('../../examples/default.baseline.yaml', import.meta.url))

/** `scenarios`: what the preflight loaded, so that a client run does not parse every file again. */
async function runSuites(command: Extract<Command, { reportDir: string }>, io: Io, scenarios: readonly LoadedScenario[] | undefined): Promise<SuiteResult[]> {
  // On a terminal one line tells where the run is, and only what needs a look stays on screen;
  // elsewhere every finished run and check is a line of the log.
  const live = io.terminal ? new LiveLine(io.stderr, io.terminal.columns) : undefined
  let serverChecks = 0
  let revisionNote = ''
  const onCheck = (check: Parameters<typeof progressLine>[0]) => {
    if (!live) return io.stderr(`${progressLine(check)}\n`)
    if (check.status !== 'pass' && check.status !== 'skip') live.line(`${progressLine(check)}${revisionNote}\n`)
    live.set(`server checks${revisionNote}: ${++serverChecks} done, last ${plain(check.id)}`)
  }
  const suites: SuiteResult[] = []
  if (command.kind === 'client' || command.kind === 'default') {
    const given = command.kind === 'client' ? command.options : { transports: command.transports, scenarioIds: [], updateSnapshots: false, jobs: command.jobs }
    const options = { ...given, jobs: given.jobs ?? defaultJobs(), ...(scenarios ? { scenarios } : {}) }
    io.stderr(`mcp-conformance: client scenarios (${options.transports.join(', ')}), ${options.jobs === 1 ? 'one at a time' : `${options.jobs} at a time`}\n`)
    suites.push(...(await clientSuites(options, io, live)))
  }
  if (command.kind === 'judge') {
    io.stderr(`mcp-conformance: judging the wire log ${command.wire}\n`)
    suites.push(await judgeSuite(command.wire, command.scenario))
  }
  if (command.kind === 'server' || command.kind === 'default') {
    const { target, calls } = command.kind === 'server' ? command : everythingTarget()
    const serverName = command.kind === 'server' ? command.serverName : undefined
    const options = { calls, onCheck, requestTimeoutMs: command.timeoutMs, startupTimeoutMs: command.startupTimeoutMs, ...(serverName ? { serverName } : {}) }
    const revisions = command.kind === 'server' ? command.revisions : undefined
    // The server runner (its probes, registry and judges) loads only for a run that judges a server.
    const { runServerSuite } = await import('../server/run.ts')
    if (!revisions) {
      io.stderr(`mcp-conformance: server checks against ${describeTarget(target)}\n`)
      suites.push(await runServerSuite(target, options))
    }
    // One run per revision, one after the other: each is a session of its own, negotiating that revision.
    for (const revision of revisions ?? []) {
      serverChecks = 0
      revisionNote = ` (${revision})`
      io.stderr(`mcp-conformance: server checks (${revision}) against ${describeTarget(target)}\n`)
      suites.push(await runServerSuite(target, { ...options, revision }))
    }
  }
  live?.clear()
  return suites
}

async function judgeSuite(wire: string, scenarioId?: string): Promise<SuiteResult> {
  const { judgeWireLog } = await import('../client/judge.ts')
  const { loadScenarios } = await import('../client/load.ts')
  try {
    const scenario = scenarioId === undefined ? undefined : loadScenarios().find((s) => s.scenario.id === scenarioId)?.scenario
    if (scenarioId !== undefined && !scenario) throw new Error(`no scenario with id ${JSON.stringify(scenarioId)} (see: mcp-conformance list)`)
    return judgeWireLog(wire, scenario)
  } catch (error) {
    return harnessErrorSuite('wire-log', 'A wire log, judged', 'client', wire, error)
  }
}

async function clientSuites(options: Omit<ClientRunOptions, 'onProgress'>, io: Io, live: LiveLine | undefined): Promise<SuiteResult[]> {
  let failing = 0
  let done = 0
  // Several runs may be under way (--jobs): the line names each, in the order they started.
  const running = new Map<number, string>()
  const onRun: ClientRunOptions['onRun'] = ({ id, transport, index, total, suite }) => {
    if (!suite) running.set(index, `${id} [${transport}]`)
    else {
      running.delete(index)
      done++
      if (suite.checks.some((c) => c.status === 'fail' || c.status === 'error')) failing++
    }
    live?.set(`[${done}/${total} done] ${[...running.values()].join(', ')}${failing ? ` · ${failing} failing so far` : ''}`)
  }
  const onProgress = (line: string) => {
    if (!live) io.stderr(`  ${plain(line)}\n`)
    else if (line.startsWith('FAIL')) live.line(`  ${plain(line)}\n`)
  }
  try {
    return await runClientScenarios({ ...options, onProgress, onRun })
  } catch (error) {
    // Until (or unless) the client runner works, the run still reports, as a harness error.
    return [harnessErrorSuite('client', 'Client scenarios', 'client', options.driver !== undefined ? `driver: ${options.driver}` : 'mcp-bridge plugin', error)]
  }
}
