import type { RunState } from '../state.ts'

/** The `kill` step: the server dies at once (SIGKILL), as a crash would end it. */
export async function runKill(run: RunState): Promise<void> {
  if (run.fixture.transport === 'http') return run.fixture.kill()
  for (const pid of run.session!.pids()) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}
