/**
 * How the owner tests end a CLI that owns processes (mcp-conformance, mcp-fixture): every signal
 * a supervisor, a terminal or the kernel sends, with the exit each must produce (128 + the signal
 * for the handled ones), and the clean-up that no failing test may skip.
 */
import type { ChildProcess } from 'node:child_process'
import { afterEach } from 'vitest'

export const OWNER_ENDINGS = [
  { name: 'SIGTERM', end: (pid: number) => process.kill(pid, 'SIGTERM'), exit: { code: 143, signal: null } },
  { name: 'SIGINT', end: (pid: number) => process.kill(pid, 'SIGINT'), exit: { code: 130, signal: null } },
  { name: 'SIGINT to its process group (Ctrl-C)', end: (pid: number) => process.kill(-pid, 'SIGINT'), exit: { code: 130, signal: null } },
  { name: 'SIGKILL', end: (pid: number) => process.kill(pid, 'SIGKILL'), exit: { code: null, signal: 'SIGKILL' } },
] as const

export type OwnerEnding = (typeof OWNER_ENDINGS)[number]

/** The set to add each started owner to: after every test, one still running is killed, so a test that fails before it ends its owner leaves nothing. */
export function trackedOwners(): Set<ChildProcess> {
  const running = new Set<ChildProcess>()
  afterEach(() => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    running.clear()
  })
  return running
}
