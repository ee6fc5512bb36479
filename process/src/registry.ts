import { rmSync } from 'node:fs'

/**
 * What this process owns that must not outlive it: the process groups it started and the
 * temporary directories it made. Kept on a global symbol, so that two copies of this package in
 * one process (an application with two installs) share one registry and one exit hook.
 */
export interface Registry {
  /** Each tracked group, with the release of its watchdog once it has one. */
  groups: Map<number, (() => void) | undefined>
  tempDirs: Set<string>
  /** Graceful stops run on SIGINT/SIGTERM before what is left is killed (shutdown.ts). */
  stoppers: Set<() => unknown>
  exitHooked: boolean
}

const KEY = Symbol.for('@mcp-bridge/process.registry')

export function registry(): Registry {
  const global = globalThis as { [KEY]?: Registry }
  global[KEY] ??= { groups: new Map(), tempDirs: new Set(), stoppers: new Set(), exitHooked: false }
  const state = global[KEY]
  if (!state.exitHooked) {
    state.exitHooked = true
    // 'exit' also runs after an uncaught exception or an unhandled rejection. It cannot run after
    // SIGKILL (or a signal without a handler): that is the watchdog's case (group.ts).
    process.once('exit', () => killEverything())
  }
  return state
}

export function trackGroup(pid: number): void {
  const { groups } = registry()
  if (!groups.has(pid)) groups.set(pid, undefined)
}

/** What lets the group's watchdog go quietly once the owner has killed the group itself. */
export function setRelease(pid: number, release: () => void): void {
  const { groups } = registry()
  if (groups.has(pid)) groups.set(pid, release)
}

export function untrackGroup(pid: number): void {
  registry().groups.delete(pid)
}

/** SIGKILL to every group still tracked, then every tracked temp directory removed; synchronous. */
export function killEverything(): void {
  const { groups, tempDirs } = registry()
  for (const [pid, release] of groups) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
    // A write to a pipe with room is done at once, even in an 'exit' handler.
    release?.()
  }
  groups.clear()
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
  tempDirs.clear()
}
