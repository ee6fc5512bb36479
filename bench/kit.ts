/**
 * The kit itself: wall time of the conformance CLI's full client run (every scenario, stdio and
 * HTTP, against our plugin) and of its server run against @modelcontextprotocol/server-everything
 * over stdio. Each run is a child process with its own report directory (a temp folder, removed
 * afterwards), bounded in time; on timeout its whole process group is killed. No target: the
 * figures are for trend watching. A missing CLI is a skip with the reason, not a failure. The
 * client run is shared with bench/startup.ts (one run per process): it takes half a minute.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { row, type Bench, type Row } from './model.ts'
import { formatMs, round } from './stats.ts'

const CLI = fileURLToPath(new URL('../conformance/bin/mcp-conformance.js', import.meta.url))
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLIENT_TIMEOUT_MS = 180_000
const SERVER_TIMEOUT_MS = 60_000

export interface KitRun {
  ms: number
  exitCode: number | null
  timedOut: boolean
  summary?: { pass: number; fail: number; warn: number; skip: number; error: number }
  suites?: number
}

export const kit: Bench = {
  id: 'kit',
  title: 'The conformance kit itself (wall time)',
  async run(log) {
    if (!existsSync(CLI)) {
      return { rows: [row('kit runs', { bridge: 'skipped' })], targets: [], figures: {}, notes: [], skipped: `${CLI} does not exist (conformance CLI not ready)` }
    }
    let everything: string | undefined
    try {
      everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
    } catch {
      // Reported below as a skipped row.
    }
    const rows: Row[] = []
    const notes: string[] = []
    const figures: Record<string, unknown> = {}
    log('kit: client run (all scenarios, stdio and http)')
    const client = await clientRun()
    figures.client = roundRun(client)
    rows.push(row(`client run, every scenario (${describeRun(client)})`, { bridge: formatMs(client.ms) }))
    if (everything) {
      log('kit: server run against server-everything (stdio)')
      const server = await runCli(['server', '--', process.execPath, everything, 'stdio'], SERVER_TIMEOUT_MS)
      figures.server = roundRun(server)
      rows.push(row(`server run, server-everything (${describeRun(server)})`, { bridge: formatMs(server.ms) }))
    } else {
      rows.push(row('server run: server-everything', { bridge: 'skipped' }))
      notes.push('@modelcontextprotocol/server-everything is not installed: server run skipped')
    }
    if (client.timedOut) notes.push(`client run killed after ${CLIENT_TIMEOUT_MS / 1000} s`)
    return { rows, targets: [], figures, notes }
  },
}

let sharedClientRun: Promise<KitRun> | undefined

/** The full client run (every scenario, both transports), made once per process whoever asks first. */
export function clientRun(): Promise<KitRun> {
  return (sharedClientRun ??= runCli(['client', '--transport', 'all'], CLIENT_TIMEOUT_MS))
}

export function roundRun(run: KitRun): Record<string, unknown> {
  return { ...run, ms: round(run.ms, 0) }
}

export function describeRun(run: KitRun): string {
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

function readReport(dir: string): Pick<KitRun, 'summary' | 'suites'> {
  try {
    const report = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { summary: KitRun['summary']; suites: unknown[] }
    return { summary: report.summary, suites: report.suites.length }
  } catch {
    return {}
  }
}
