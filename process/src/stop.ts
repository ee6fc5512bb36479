import type { ChildProcess } from 'node:child_process'
import { killGroup } from './group.ts'
import { settlesWithin } from './wait.ts'

/** How far `stopGroup` had to go: the server exited on EOF ('none'), or only after a signal, or not even after SIGKILL. */
export type Escalation = 'none' | 'SIGTERM' | 'SIGKILL' | 'unkillable'

export interface StopOptions {
  /** Settles once the server has exited. */
  exited: Promise<unknown>
  /** Whether to close the server's stdin (not when the pipe is already broken); default true. */
  closeInput?: boolean
  /** Default: to the server's whole group (killGroup). The kit addresses the pid alone, to judge what the server leaves behind. */
  signal?(signal: 'SIGTERM' | 'SIGKILL'): void
  /** The wait after EOF and after SIGTERM. */
  graceMs: number
  /** The wait after SIGKILL, which needs no grace, only the exit's report; default graceMs. */
  killedWaitMs?: number
  /** Told before each step (EOF, SIGTERM, SIGKILL), while the server still runs. */
  beforeStep?(): void
}

/**
 * The stdio shutdown sequence, one rule for the plugin and the kit: "the client SHOULD initiate
 * shutdown by: First, closing the input stream to the child process (the server); Waiting for the
 * server to exit, or sending SIGTERM if the server does not exit within a reasonable time; Sending
 * SIGKILL if the server does not exit within a reasonable time after SIGTERM" (MCP 2025-11-25
 * §basic/lifecycle Shutdown). Every wait is bounded.
 */
export async function stopGroup(child: ChildProcess, options: StopOptions): Promise<Escalation> {
  const { exited, graceMs } = options
  const signal = options.signal ?? ((name) => killGroup(child, name))
  options.beforeStep?.()
  if (options.closeInput ?? true) child.stdin?.end()
  if (await settlesWithin(exited, graceMs)) return 'none'
  options.beforeStep?.()
  signal('SIGTERM')
  if (await settlesWithin(exited, graceMs)) return 'SIGTERM'
  options.beforeStep?.()
  signal('SIGKILL')
  return (await settlesWithin(exited, options.killedWaitMs ?? graceMs)) ? 'SIGKILL' : 'unkillable'
}
