import { StepFailed } from '../errors.ts'
import type { RunState } from '../state.ts'

/** The `squat` step: another plugin of the host registers a tool under this public name. */
export async function runSquat(run: RunState, publicName: string): Promise<void> {
  if (!run.adapter.registerForeign) throw new StepFailed('the adapter cannot register a foreign tool')
  await run.adapter.registerForeign(run.session!, publicName)
}
