import { spawn, type ChildProcess, type IOType } from 'node:child_process'
import type { Writable } from 'node:stream'
import { setRelease, trackGroup, untrackGroup } from './registry.ts'

/** Process groups (and so the watchdog) exist on Linux and macOS; Windows has neither. */
export const groupsSupported = process.platform !== 'win32'

/**
 * The watchdog, in POSIX sh: a second child of the owner, started right after the server. It
 * ignores INT, TERM and HUP (a Ctrl-C or a polite group SIGTERM must not take it away while the
 * server lingers) and blocks reading fd 3, one end of a pipe whose other end only the owner holds.
 * When the owner ends, however it ends (exit, crash, SIGKILL), the kernel closes the owner's end,
 * the read returns nothing, and the watchdog sends SIGTERM to the server's group, waits the grace
 * period (no longer than the group lives), then SIGKILL. A line from the owner instead (`release`, sent when the server has
 * exited) lets it exit quietly. It is the owner's own child, so the owner reaps it: no zombie is
 * left behind even where PID 1 reaps nothing (a container whose init is the application). Its
 * stdio is /dev/null, so it holds none of the server's pipes, and it has a session of its own.
 */
const WATCHDOG = [
  'trap "" INT TERM HUP',
  'read _ <&3 && exit 0',
  'kill -s TERM -- "-$1" 2>/dev/null || exit 0',
  // The grace period in 50 ms steps, cut short as soon as the group is gone.
  'i=0',
  'while [ "$i" -lt "$2" ] && kill -s 0 -- "-$1" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done',
  'kill -s KILL -- "-$1" 2>/dev/null',
].join('\n')

export interface SpawnGroupOptions {
  env: NodeJS.ProcessEnv
  cwd?: string
  /** stdin, stdout, stderr; default all pipes. */
  stdio?: [IOType, IOType, IOType]
  /** When the owner dies: SIGTERM to the group, then SIGKILL this much later. */
  graceMs: number
}

export interface GroupProcess {
  child: ChildProcess
  /** The server's own pid, which is also its process group's id. */
  readonly pid: number | undefined
  /** The watchdog's pid; undefined without one (Windows, or a server that did not start). */
  readonly watchdog: Promise<number | undefined>
  /**
   * Settles once the server has exited (or never started) and its watchdog is gone too: the
   * moment an owner may say that every process it started for this server has ended.
   */
  readonly ended: Promise<void>
}

/**
 * Starts `command` as the leader of a new process group (POSIX: a new session), plus a watchdog
 * that ends the group, grandchildren included, when the owner dies, whatever kills the owner. The
 * group is tracked until the server's streams close, so that the owner's exit hook and signal
 * handling (registry.ts, shutdown.ts) kill what is left. Spawn errors are Node's own ('error'
 * with ENOENT, EACCES), as with a plain spawn.
 */
export function spawnGroup(command: string, args: readonly string[], options: SpawnGroupOptions): GroupProcess {
  const stdio = options.stdio ?? ['pipe', 'pipe', 'pipe']
  const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio, detached: groupsSupported, shell: false, windowsHide: true })
  let watchdogEnded: Promise<void> = Promise.resolve()
  const watchdog = new Promise<number | undefined>((resolve) => {
    child.once('error', () => resolve(undefined))
    child.once('spawn', () => {
      if (!groupsSupported || child.pid === undefined) return resolve(undefined)
      trackGroup(child.pid)
      const started = startWatchdog(child, child.pid, options.graceMs)
      watchdogEnded = started.ended
      resolve(started.pid)
    })
  })
  const serverEnded = new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.once('error', () => resolve())
  })
  const ended = serverEnded.then(() => watchdogEnded)
  // The leader exited and its streams closed: what is left in the group is the owner's to judge.
  child.once('close', () => {
    if (child.pid !== undefined) untrackGroup(child.pid)
  })
  return {
    child,
    get pid() {
      return child.pid
    },
    watchdog,
    ended,
  }
}

const lifelines = new Set<Writable>()

function startWatchdog(server: ChildProcess, group: number, graceMs: number): { pid: number | undefined; ended: Promise<void> } {
  const steps = String(Math.ceil(Math.max(0, graceMs) / 50))
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'mcp-watchdog', String(group), steps], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    detached: true,
    // `sleep` is found along PATH; nothing else of the owner's environment is needed.
    env: { PATH: process.env.PATH || '/usr/bin:/bin' },
  })
  const ended = new Promise<void>((resolve) => {
    watchdog.once('exit', () => resolve())
    watchdog.once('error', () => resolve())
  })
  const lifeline = watchdog.stdio[3] as Writable & { unref?: () => void }
  lifeline.on('error', () => {})
  // Held here, not only by whoever holds the server: a collected pipe would close, and the
  // watchdog would take that for the owner's death.
  lifelines.add(lifeline)
  // The owner's end only has to exist (its closing is the signal): it must not keep the owner's
  // event loop alive, and it is never ended.
  watchdog.unref()
  lifeline.unref?.()
  // The server is gone: the watchdog's work is over, and what the server left in its group is the
  // owner's to judge (and kill).
  const release = () => {
    if (lifelines.delete(lifeline) && !lifeline.destroyed) lifeline.write('release\n')
  }
  server.once('exit', release)
  // The owner kills the group itself when it exits or handles a signal (registry.ts): the
  // watchdog then has nothing left to do and must not outlive it.
  setRelease(group, release)
  return { pid: watchdog.pid, ended }
}

/** Sends `signal` to the whole group; false when the group no longer exists (or groups are unsupported). */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  if (!groupsSupported) return false
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    return false
  }
}

/** Waits (polling, bounded by `graceMs`) until no member of the group is left. */
export async function groupGone(pid: number, graceMs: number, pollMs = 25): Promise<boolean> {
  const deadline = Date.now() + graceMs
  for (;;) {
    if (!signalGroup(pid, 0)) return true
    if (Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}
