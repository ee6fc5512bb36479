import { runLabel, type SuiteResult } from '../model.ts'
import type { ClientAdapter } from './adapter.ts'
import { bridgeAdapter } from './bridge-adapter.ts'
import { driverAdapter } from './driver/adapter.ts'
import { loadScenarios, SCENARIO_DIR, type LoadedScenario } from './load.ts'
import type { RunEra } from './eras.ts'
import { runPool } from './pool.ts'
import { runScenario } from './run-scenario.ts'
import { estimatedRunMs, startOrder } from './schedule.ts'

export type { ClientAdapter, ClientSession, ServerTarget, ToolView, CallOutcome } from './adapter.ts'
export { bridgeAdapter } from './bridge-adapter.ts'
export { driverAdapter } from './driver/adapter.ts'
export type { DriverRequest, DriverAnswer, DriverEvent, DriverServer, DriverTool, DriverCallResult } from './driver/protocol.ts'
export { BRIDGE_ONLY_CHECKS, FEATURES } from './applicability.ts'
export { loadScenarios, parseScenario, scenarioFiles, ScenarioError, SCENARIO_DIR } from './load.ts'
export { ScenarioSchema, type Scenario } from './scenario.ts'
export { defaultJobs, DEFAULT_JOBS_CAP, MAX_JOBS } from './pool.ts'

export interface ClientRunOptions {
  transports: Array<'stdio' | 'http'>
  scenarioIds: string[]
  updateSnapshots: boolean
  shard?: { index: number; count: number }
  /**
   * How many scenario runs at once (1 by default: one after another, in the order below). The
   * results are in that order whatever the number; progress is told as each run ends.
   */
  jobs?: number
  onProgress?: (line: string) => void
  /** Told as each scenario run starts (no suite yet) and ends, with its place among them all. */
  onRun?: (run: { id: string; transport: 'stdio' | 'http'; era: RunEra; index: number; total: number; suite?: SuiteResult }) => void
  /** The client under test; our plugin by default. */
  adapter?: ClientAdapter
  /** A driver program's command line (FORMAT.md §Driver protocol): the client under test is the one it drives. */
  driver?: string
  /** Where scenarios live; `scenarios/` by default. */
  dir?: string
  /** The scenarios of `dir`, already loaded (the CLI loads them before the run to check the ids asked for): not read again. */
  scenarios?: readonly LoadedScenario[]
}

/** Pure: the scenarios this run covers, in id order, then this shard's share (1-based index). */
export function selectScenarios(all: readonly LoadedScenario[], ids: string[], shard?: { index: number; count: number }): LoadedScenario[] {
  const unknown = ids.filter((id) => !all.some((s) => s.scenario.id === id))
  if (unknown.length) throw new Error(`no scenario with id ${unknown.map((id) => JSON.stringify(id)).join(', ')} (see: mcp-conformance list)`)
  const chosen = ids.length ? all.filter((s) => ids.includes(s.scenario.id)) : [...all]
  return shard ? chosen.filter((_, i) => i % shard.count === shard.index - 1) : chosen
}

/** Pure: every run of the selection, each scenario over each transport (the caller's too) and each era it lists. */
export function expandRuns(selected: LoadedScenario[], transports: Array<'stdio' | 'http'>): Array<{ loaded: LoadedScenario; transport: 'stdio' | 'http'; era: RunEra }> {
  return selected.flatMap((loaded) =>
    loaded.scenario.transports.filter((t) => transports.includes(t)).flatMap((transport) => loaded.scenario.eras.map((era) => ({ loaded, transport, era }))),
  )
}

/** Runs the client scenarios, each over every transport it and the caller allow, `jobs` at a time. */
export async function runClientScenarios(options: ClientRunOptions): Promise<SuiteResult[]> {
  // A CI run that rewrote its snapshots would pass whatever the client did.
  if (options.updateSnapshots && process.env.CI === 'true') throw new Error('--update-snapshots is refused when CI=true: update snapshots locally and commit them')
  const adapter = options.adapter ?? (options.driver !== undefined ? driverAdapter(options.driver) : bridgeAdapter)
  const selected = selectScenarios(options.scenarios ?? loadScenarios(options.dir ?? SCENARIO_DIR), options.scenarioIds, options.shard)
  const runs = expandRuns(selected, options.transports)
  const jobs = options.jobs ?? 1
  // One at a time, the runs go in the serial order; side by side, in the order that ends soonest
  // (schedule.ts). Either way the results come back in the serial order.
  const order = jobs === 1 ? runs.map((_, index) => index) : startOrder(runs, ({ loaded }) => runsAlone(loaded), ({ loaded, transport }) => estimatedRunMs(loaded.scenario, transport))
  const started = order.map((index) => ({ ...runs[index]!, index }))
  const results = await runPool(started, jobs, ({ loaded }) => runsAlone(loaded), async ({ loaded, transport, era, index }) => {
    const place = { id: loaded.scenario.id, transport, era, index, total: runs.length }
    options.onRun?.(place)
    const result = await runScenario(loaded, transport, adapter, { updateSnapshots: options.updateSnapshots, era })
    options.onRun?.({ ...place, suite: result })
    const failed = result.checks.filter((c) => c.status === 'fail' || c.status === 'error')
    options.onProgress?.(`${failed.length ? 'FAIL' : 'ok  '} ${loaded.scenario.id} [${runLabel(transport, era)}] ${result.durationMs} ms${failed.length ? `: ${failed.map((c) => c.id).join(', ')}` : ''}`)
    return result
  })
  const inSerialOrder = new Array<SuiteResult>(runs.length)
  started.forEach(({ index }, k) => (inSerialOrder[index] = results[k]!))
  return inSerialOrder
}

/**
 * Pure: whether a scenario's runs must have the process to themselves. hostEnv is planted in
 * process.env for the whole run (the plugin reads a credential's variable there, as a host's
 * would): two such runs side by side would read, or restore away, each other's values, and any
 * other run's client would see them too (a driver inherits process.env).
 */
export function runsAlone(loaded: LoadedScenario): boolean {
  return Object.keys(loaded.scenario.hostEnv).length > 0
}

/** One entry per scenario: id and title. */
export async function listScenarios(dir = SCENARIO_DIR): Promise<Array<{ id: string; title: string }>> {
  return loadScenarios(dir).map(({ scenario }) => ({ id: scenario.id, title: scenario.title }))
}
