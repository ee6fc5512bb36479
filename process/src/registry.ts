import { rmSync } from 'node:fs'
import { descendantsOf, killRecorded, processTable, type ProcessEntry } from './tree.ts'

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
  /**
   * The tracked groups whose leader's descendants are the owner's too, wherever they went (group.ts,
   * `takeDescendants`). Optional: a registry made by an older copy of this package has none.
   */
  takingDescendants?: Set<number>
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

export function trackGroup(pid: number, options: { takeDescendants?: boolean } = {}): void {
  const state = registry()
  if (!state.groups.has(pid)) state.groups.set(pid, undefined)
  if (options.takeDescendants) (state.takingDescendants ??= new Set()).add(pid)
}

/** What lets the group's watchdog go quietly once the owner has killed the group itself. */
export function setRelease(pid: number, release: () => void): void {
  const { groups } = registry()
  if (groups.has(pid)) groups.set(pid, release)
}

export function untrackGroup(pid: number): void {
  const state = registry()
  state.groups.delete(pid)
  state.takingDescendants?.delete(pid)
}

/**
 * SIGKILL to every group still tracked (and to the descendants of those that take them, wherever
 * they went), then every tracked temp directory removed; synchronous.
 */
export function killEverything(): void {
  const { groups, tempDirs, takingDescendants } = registry()
  // Listed before any kill: once a leader dies, its children's descent is lost.
  const table = takingDescendants?.size ? processTable() : undefined
  const descendants: ProcessEntry[] = [...(takingDescendants ?? [])].flatMap((pid) => descendantsOf(pid, table) ?? [])
  takingDescendants?.clear()
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
  killRecorded(descendants)
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
  tempDirs.clear()
}
