/**
 * `npm run bench [-- <id>...]`: runs the benchmarks one after another (all by default), prints one
 * table on stdout (progress on stderr) and writes every figure to bench/results/. Each benchmark
 * measures its own baseline in the same run and reports ratios, so the verdicts survive a noisy
 * machine. Every target a benchmark declares is in the table on every run: one that could not be
 * measured is shown as such (targets.ts). Exit code: 0 when every selected benchmark ran and
 * measured all its targets (targets may still miss: they are reported, and `--strict` turns a miss
 * into exit 1), 1 when one could not run or left a target unmeasured, 2 on bad usage.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { discovery } from './discovery.ts'
import { fanout } from './fanout.ts'
import { kit } from './kit.ts'
import type { Bench, BenchOutcome } from './model.ts'
import { overhead } from './overhead.ts'
import { registry } from './registry.ts'
import { soak } from './soak.ts'
import { startup } from './startup.ts'
import { storm } from './storm.ts'
import { accountTargets, type Unmeasured } from './targets.ts'
import { uptime } from './uptime.ts'
import { formatMarkdownTable, formatMs, formatTable, round } from './stats.ts'

const BENCHES: Bench[] = [registry, overhead, discovery, storm, fanout, soak, uptime, kit, startup]
/** Hard ceiling for the whole run; each benchmark bounds itself well below this. */
const WATCHDOG_MS = 15 * 60_000
/** What a full run should take on the 2-core bench machine, loaded (bench/README.md); past it, a note says so. */
const BUDGET_MS = 5 * 60_000
const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url))
const HEADER = ['benchmark', 'measure', 'bridge', 'baseline', 'ratio', 'target', 'holds']

const USAGE = `usage: npm run bench [-- [--strict] [id ...]]
  ids: ${BENCHES.map((b) => b.id).join(', ')} (default: all)
  --strict  exit 1 when a target does not hold
`

// Memory figures need a real GC: re-run this file under --expose-gc when it is not on.
if (typeof (globalThis as { gc?: unknown }).gc !== 'function' && process.env.BENCH_REEXEC !== '1') {
  await reexecWithGc()
} else {
  process.exitCode = await main(process.argv.slice(2))
  // Keep-alive sockets or a stuck handle must not keep a finished run open.
  process.exit()
}

async function reexecWithGc(): Promise<never> {
  const child = spawn(process.execPath, ['--expose-gc', ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_REEXEC: '1' },
  })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
  const code = await new Promise<number>((resolve) => child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))))
  process.exit(code)
}

async function main(argv: string[]): Promise<number> {
  const strict = argv.includes('--strict')
  const ids = argv.filter((arg) => arg !== '--strict')
  if (ids.includes('--help') || ids.includes('-h')) {
    process.stdout.write(USAGE)
    return 0
  }
  const unknown = ids.filter((id) => !BENCHES.some((b) => b.id === id))
  if (unknown.length) {
    process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')}\n${USAGE}`)
    return 2
  }
  const selected = ids.length ? BENCHES.filter((b) => ids.includes(b.id)) : BENCHES
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130))
  setTimeout(() => {
    process.stderr.write(`bench: watchdog: the run exceeded ${WATCHDOG_MS / 60_000} minutes, stopping\n`)
    process.exit(1)
  }, WATCHDOG_MS).unref()

  const started = performance.now()
  const date = new Date().toISOString()
  const loadBefore = loadavg()
  const log = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`)
  log(`node ${process.version}, ${cpus().length} cores, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; running ${selected.map((b) => b.id).join(', ')}`)

  const outcomes: Array<BenchOutcome & { unmeasured: Unmeasured[] }> = []
  for (const bench of selected) {
    const t0 = performance.now()
    let outcome: BenchOutcome
    try {
      const report = await bench.run(log)
      outcome = { id: bench.id, title: bench.title, durationMs: performance.now() - t0, ...report }
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
      log(`${bench.id}: FAILED: ${message}`)
      outcome = { id: bench.id, title: bench.title, durationMs: performance.now() - t0, rows: [], targets: [], figures: {}, notes: [], error: message.split('\n')[0] }
    }
    const { targets, unmeasured } = accountTargets(bench.targets, outcome.targets, outcome.error)
    for (const { id, reason } of unmeasured) log(`${bench.id}: target ${id} NOT MEASURED: ${reason}`)
    outcomes.push({ ...outcome, targets, unmeasured })
    log(`${bench.id}: done in ${formatMs(performance.now() - t0)}`)
  }
  const totalMs = performance.now() - started

  const rows = outcomes.flatMap((o) => [
    ...(o.error ? [[o.id, 'ERROR', o.error, '', '', '', '?']] : o.rows.map((r) => [o.id, r.measure, r.bridge, r.baseline, r.ratio, r.target, r.holds])),
    ...o.unmeasured.map(({ id, reason }) => [o.id, `target ${id}: NOT MEASURED`, reason, '', '', '', 'NO']),
  ])
  const targets = outcomes.flatMap((o) => o.targets.map((t) => ({ bench: o.id, ...t })))
  const held = targets.filter((t) => t.holds === true).length
  const unmeasured = outcomes.flatMap((o) => o.unmeasured.map((u) => u.id))
  const missed = targets.filter((t) => t.holds === false)
  const notes = [
    ...outcomes.flatMap((o) => o.notes.map((n) => `${o.id}: ${n}`)),
    ...(totalMs > BUDGET_MS && ids.length === 0 ? [`the run took ${formatMs(totalMs)}, over its ${BUDGET_MS / 60_000}-minute budget`] : []),
  ]

  const machine = { cores: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}` }
  const lines = [
    `MCP bridge benchmarks: ${date}, node ${machine.node}, ${machine.cores} cores (${machine.cpuModel}), load before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    formatTable(HEADER, rows),
    '',
    `targets: ${held} of ${targets.length} hold${missed.length ? `; not holding: ${missed.map((t) => `${t.id} (${t.measured ?? '?'} vs ${t.limit ?? '?'} ${t.unit})`).join(', ')}` : ''}${unmeasured.length ? `; NOT MEASURED (a failure of the benchmark): ${unmeasured.join(', ')}` : ''}`,
    ...notes.map((n) => `note: ${n}`),
    `total run time: ${formatMs(totalMs)}`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)

  const suffix = ids.length ? `-${selected.map((b) => b.id).join('-')}` : ''
  const json = {
    formatVersion: 1,
    date,
    machine: { ...machine, loadAverageBefore: loadBefore.map((l) => round(l, 2)), loadAverageAfter: loadavg().map((l) => round(l, 2)) },
    totalMs: round(totalMs, 0),
    selected: selected.map((b) => b.id),
    targets,
    targetsHeld: held,
    targetsTotal: targets.length,
    targetsUnmeasured: unmeasured,
    benchmarks: outcomes.map((o) => ({ ...o, durationMs: round(o.durationMs, 0) })),
  }
  mkdirSync(RESULTS_DIR, { recursive: true })
  const jsonPath = `${RESULTS_DIR}latest${suffix}.json`
  writeFileSync(jsonPath, `${JSON.stringify(json, null, 2)}\n`)
  writeFileSync(`${RESULTS_DIR}latest${suffix}.md`, `${formatMarkdownTable(HEADER, rows)}\n`)
  log(`wrote ${jsonPath} (and .md)`)

  if (outcomes.some((o) => o.error) || unmeasured.length) return 1
  return strict && missed.length ? 1 : 0
}
