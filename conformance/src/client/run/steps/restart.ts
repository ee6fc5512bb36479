import type { RunState } from '../state.ts'

/** The `restart` step: the fixture server comes back, for a client that reconnects. */
export async function runRestart(run: RunState): Promise<void> {
  await run.fixture.restart()
}
