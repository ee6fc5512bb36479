import type { Scenario } from '../../scenario.ts'
import type { RunState } from '../state.ts'
import { runBeyond } from './beyond.ts'
import { runCall } from './call.ts'
import { runDispose } from './dispose.ts'
import { runExpectTools } from './expect-tools.ts'
import { runKill } from './kill.ts'
import { runRestart } from './restart.ts'
import { runSetRoots } from './set-roots.ts'
import { runSquat } from './squat.ts'
import { runWait } from './wait.ts'

/** One step of the scenario, by its kind; `not-reached` for a call that never reached the server. */
export async function runStep(run: RunState, step: Scenario['steps'][number], stepIndex: number): Promise<'not-reached' | void> {
  if ('call' in step) return runCall(run, step.call, ++run.callIndex)
  else if ('wait' in step) await runWait(run, step.wait)
  else if ('kill' in step) await runKill(run)
  else if ('restart' in step) await runRestart(run)
  else if ('expectTools' in step) runExpectTools(run, step.expectTools, stepIndex + 1)
  else if ('squat' in step) await runSquat(run, step.squat)
  else if ('dispose' in step) await runDispose(run)
  else if ('setRoots' in step) await runSetRoots(run, step.setRoots, stepIndex + 1)
  else await runBeyond(run, step, stepIndex + 1)
}
