import { withinDeadline } from '@mcp-bridge/process'
import type { SuiteResult } from '../model.ts'
import type { ClientAdapter } from './adapter.ts'
import type { LoadedScenario } from './load.ts'
import { boundMessage } from './run-bound.ts'
import { drive } from './run/drive.ts'
import { judgeRun } from './run/judge-run.ts'
import { runBound, setEnv } from './run/settings.ts'
import { RunState, type RunOptions } from './run/state.ts'
import { assembleSuite } from './run/suite.ts'
import { tearDown } from './run/teardown.ts'

export { boundDefaults } from './run/settings.ts'
export type { RunOptions } from './run/state.ts'

/**
 * One scenario over one transport against one client. Never throws: everything that goes wrong
 * becomes a check, and teardown (dispose, orphan check, fixture close) always runs.
 */
export async function runScenario(loaded: LoadedScenario, transport: 'stdio' | 'http', adapter: ClientAdapter, options: RunOptions): Promise<SuiteResult> {
  const startedAt = performance.now()
  const run = new RunState(loaded, transport, adapter, options)
  const restoreEnv = setEnv(run.scenario.hostEnv)
  const bound = runBound(run.scenario, run.kind, options.outerBoundMs)
  // The client's part runs under the outer bound; past it the run is cut short, a harness error, never a hang.
  const finished = await withinDeadline(drive(run), bound.ms)
  restoreEnv()
  if (!finished) {
    run.cut = true
    run.checks.push({ id: 'harness/bound', title: 'The scenario run ends within its outer bound', status: 'error', message: boundMessage(run.scenario.id, run.label, bound, run.at) })
  }
  const torn = await tearDown(run, bound)
  const observed = run.recorder.stop()
  const revision = judgeRun(run, torn)
  return assembleSuite(run, observed, revision, startedAt)
}
