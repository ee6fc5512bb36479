/**
 * Busy loops that keep every core of the machine busy while a test runs, as a loaded CI runner
 * or a shared 2-core machine is. Each is a child process of the test, started here and stopped
 * here by its pid (never by name): nothing outlives the test, even when it fails.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { availableParallelism } from 'node:os'

export interface Burners {
  pids: number[]
  /** Whether every burner still runs: a load that stopped halfway proves nothing. */
  allRunning(): boolean
  stop(): Promise<void>
}

/** Starts `perCore` busy loops per core (2 by default: more runnable processes than cores). */
export function startBurners(perCore = 2): Burners {
  const children: ChildProcess[] = []
  for (let i = 0; i < perCore * availableParallelism(); i++) {
    children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
  }
  // A test runner that exits without afterAll (a crash, a timeout of the whole run) still stops them.
  const onExit = () => stopNow(children)
  process.once('exit', onExit)
  return {
    pids: children.map((child) => child.pid!).filter((pid) => pid !== undefined),
    allRunning: () => children.every((child) => child.exitCode === null && child.signalCode === null),
    async stop() {
      process.off('exit', onExit)
      const exited = children.map((child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()))))
      stopNow(children)
      await Promise.all(exited)
    },
  }
}

function stopNow(children: ChildProcess[]): void {
  for (const child of children) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue
    try {
      process.kill(child.pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}
