/**
 * The kit itself: wall time of the conformance CLI's client scenarios against our plugin, one run
 * at a time (--jobs 1) and side by side as it runs by default (--jobs unset: two per core, at most
 * 4), on the same slice of the scenarios (--shard SHARD, both transports), one after the other in
 * this run; and of its server run against @modelcontextprotocol/server-everything over stdio.
 * Targets: the default run takes at most TARGET_JOBS_RATIO of the serial one's wall time, with the
 * same verdicts, suite by suite and check by check. A slice, not every scenario: the whole client
 * run one at a time takes about 2 minutes on a quiet 2-core machine and several on a loaded one,
 * with `npm run bench` bounded at 5 minutes in all. Each run is a child process with its own
 * report directory (a temp folder, removed afterwards), bounded in time; on timeout its whole
 * process group is killed.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { row, verdict, type Bench, type Row, type Target } from './model.ts'
import { formatMs, formatRatio, ratio, round } from './stats.ts'

const CLI = fileURLToPath(new URL('../conformance/bin/mcp-conformance.js', import.meta.url))
const ROOT = fileURLToPath(new URL('..', import.meta.url))
/**
 * A quarter of the scenarios (every fourth, in id order), over both transports: about 60 runs,
 * 25-32 s one at a time. The start both runs pay (loading the kit and every scenario, 0.7-2 s)
 * cannot be halved, so a slice must be long beside it for the ratio to measure the scheduling:
 * a twelfth (20 runs, 7 s) put that start at a tenth of the serial run and the ratio near 0.6.
 */
const SHARD = '1/4'
/** Issue 40: the default (parallel) run in at most 0.55x the serial run's wall time. */
const TARGET_JOBS_RATIO = 0.55
const CLIENT_TIMEOUT_MS = 150_000
const SERVER_TIMEOUT_MS = 60_000

export interface KitRun {
  ms: number
  exitCode: number | null
  timedOut: boolean
  summary?: { pass: number; fail: number; warn: number; skip: number; error: number }
  suites?: number
  /** One line per suite, in report order: its id, transport and every check's status. */
  verdicts?: string[]
}

export const kit: Bench = {
  id: 'kit',
  title: 'The conformance kit itself (wall time, serial and parallel client runs)',
  targets: ['kit.jobs.wall', 'kit.jobs.verdicts'],
  async run(log) {
    if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: run \`npm run build\` first`)
    const rows: Row[] = []
    const targets: Target[] = []
    const notes: string[] = []
    log(`kit: client run, --shard ${SHARD}, one at a time (--jobs 1)`)
    const serial = await runCli(['client', '--shard', SHARD, '--jobs', '1'], CLIENT_TIMEOUT_MS)
    log(`kit: client run, --shard ${SHARD}, side by side (--jobs by default)`)
    const parallel = await runCli(['client', '--shard', SHARD], CLIENT_TIMEOUT_MS)
    const complete = !serial.timedOut && !parallel.timedOut && serial.verdicts !== undefined && parallel.verdicts !== undefined
    const wall = complete ? ratio(parallel.ms, serial.ms) : Number.NaN
    const wallHolds = Number.isFinite(wall) ? wall <= TARGET_JOBS_RATIO : null
    const differing = complete ? differingSuites(serial.verdicts!, parallel.verdicts!) : undefined
    targets.push(
      { id: 'kit.jobs.wall', description: `client run --shard ${SHARD}: default --jobs / --jobs 1, wall time`, measured: round(wall), limit: TARGET_JOBS_RATIO, unit: 'x', holds: wallHolds },
      { id: 'kit.jobs.verdicts', description: 'suites whose verdicts differ between the two runs', measured: differing?.length ?? null, limit: 0, unit: 'suites', holds: differing ? differing.length === 0 : null },
    )
    rows.push(
      row(`client run --shard ${SHARD}, default --jobs vs --jobs 1 (${describeRun(parallel)})`, {
        bridge: formatMs(parallel.ms),
        baseline: `${formatMs(serial.ms)} (${describeRun(serial)})`,
        ratio: formatRatio(wall),
        target: `<= ${TARGET_JOBS_RATIO}x`,
        holds: verdict(wallHolds),
      }),
      row(`client run --shard ${SHARD}, suites with other verdicts (of ${parallel.suites ?? '?'})`, { bridge: differing ? String(differing.length) : 'n/a', target: '0', holds: verdict(differing ? differing.length === 0 : null) }),
    )
    if (differing?.length) notes.push(`verdicts differ between --jobs 1 and the default in: ${differing.slice(0, 5).join('; ')}`)
    let everything: string | undefined
    try {
      everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
    } catch {
      // A figure, no target: said in a note.
    }
    const figures: Record<string, unknown> = { shard: SHARD, serial: roundRun(serial), parallel: roundRun(parallel) }
    if (everything) {
      log('kit: server run against server-everything (stdio)')
      const server = await runCli(['server', '--', process.execPath, everything, 'stdio'], SERVER_TIMEOUT_MS)
      figures.server = roundRun(server)
      rows.push(row(`server run, server-everything (${describeRun(server)})`, { bridge: formatMs(server.ms) }))
    } else notes.push('@modelcontextprotocol/server-everything is not installed: no server run')
    return { rows, targets, figures, notes }
  },
}

/** Pure: the suites (named by id and transport) whose line differs at the same place of the two reports: other verdicts, or another order. */
export function differingSuites(a: readonly string[], b: readonly string[]): string[] {
  const name = (line: string) => line.split(' ').slice(0, 2).join(' ')
  const places = Array.from({ length: Math.max(a.length, b.length) }, (_, i) => i).filter((i) => a[i] !== b[i])
  return [...new Set(places.map((i) => name(a[i] ?? b[i]!)))]
}

function roundRun(run: KitRun): Record<string, unknown> {
  const { verdicts: _verdicts, ...rest } = run
  return { ...rest, ms: round(run.ms, 0) }
}

function describeRun(run: KitRun): string {
  if (run.timedOut) return 'TIMED OUT'
  const s = run.summary
  const counts = s ? `${s.pass} pass, ${s.fail} fail, ${s.error} error` : 'no report'
  return `exit ${run.exitCode}: ${counts}`
}

/** Runs the CLI in its own process group; stdout/stderr are discarded (the report file has the results). */
async function runCli(args: string[], timeoutMs: number): Promise<KitRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'bench-kit-'))
  try {
    const started = performance.now()
    // --report-dir goes right after the subcommand: everything after "--" is the server's argv.
    const [sub, ...rest] = args
    const child = spawn(process.execPath, [CLI, sub!, '--report-dir', reportDir, ...rest], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'ignore'],
      detached: true,
    })
    let timedOut = false
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal)
      } catch {
        // Already gone.
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      killGroup('SIGTERM')
      setTimeout(() => killGroup('SIGKILL'), 2_000).unref()
    }, timeoutMs)
    // If the bench itself is interrupted, the run must not outlive it.
    const onExit = () => killGroup('SIGKILL')
    process.once('exit', onExit)
    const exitCode = await new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code))
      child.once('error', () => resolve(null))
    })
    clearTimeout(timer)
    process.removeListener('exit', onExit)
    // Anything the run left in its group (it should leave nothing) goes with it.
    killGroup('SIGKILL')
    const ms = performance.now() - started
    return { ms, exitCode, timedOut, ...readReport(reportDir) }
  } finally {
    rmSync(reportDir, { recursive: true, force: true })
  }
}

function readReport(dir: string): Pick<KitRun, 'summary' | 'suites' | 'verdicts'> {
  try {
    const report = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { summary: KitRun['summary']; suites: Array<{ id: string; transport?: string; checks: Array<{ id: string; status: string }> }> }
    const verdicts = report.suites.map((suite) => `${suite.id} [${suite.transport ?? '-'}] ${suite.checks.map((check) => `${check.id}=${check.status}`).join(' ')}`)
    return { summary: report.summary, suites: report.suites.length, verdicts }
  } catch {
    return {}
  }
}
