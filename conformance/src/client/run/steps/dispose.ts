import type { RunState } from '../state.ts'

/** The `dispose` step: the host disposes the client mid-run; teardown then has nothing left to dispose. */
export async function runDispose(run: RunState): Promise<void> {
  await run.dispose()
}
