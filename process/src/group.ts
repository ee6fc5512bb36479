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
 *
 * With `$3` set to 1 (`takeDescendants`), it first lists the server's descendants, read from the
 * process table while the server still holds them (/proc on Linux, `ps` elsewhere): those that
 * left the group (setsid, a daemon) get the same SIGTERM, grace and SIGKILL, each with the group
 * it leads. On Linux each is listed with its start time and signalled only while that still
 * matches, so a pid reused during the grace period is never hit; elsewhere the grace period is
 * that window.
 */
/** Linux: `pid ppid start` of every process (the command may hold spaces and parentheses: fields are read after the last ") "). */
const PROC_TABLE = `cat /proc/[0-9]*/stat 2>/dev/null | awk '{ s = $0; sub(/.*\\) /, "", s); split(s, f, " "); print $1, f[2], f[20] }'`
/** Elsewhere: `pid ppid -`. */
const PS_TABLE = `ps -A -o pid= -o ppid= 2>/dev/null | awk '{ print $1, $2, "-" }'`
/** From `pid ppid start` lines: `pid:start` of every descendant of $1. */
const DESCENT = `awk -v root="$1" '{ parent[$1] = $2; start[$1] = $3 } END { found[root] = 1; more = 1; while (more) { more = 0; for (p in parent) if (!(p in found) && (parent[p] in found)) { found[p] = 1; more = 1; print p ":" start[p] } } }'`
const WATCHDOG = [
  'trap "" INT TERM HUP',
  'read _ <&3 && exit 0',
  'd=',
  `[ "$3" = 1 ] && d=$( { if [ -r /proc/self/stat ]; then ${PROC_TABLE}; else ${PS_TABLE}; fi; } | ${DESCENT})`,
  // Still the listed process: alive, and (Linux) started when it was listed.
  `same() { p=\${1%%:*}; kill -s 0 -- "$p" 2>/dev/null || return 1; [ "\${1#*:}" = - ] && return 0; [ "$(awk '{ s = $0; sub(/.*\\) /, "", s); split(s, f, " "); print f[20] }' "/proc/$p/stat" 2>/dev/null)" = "\${1#*:}" ]; }`,
  'end() { kill -s "$1" -- "-$2" 2>/dev/null; for t in $d; do same "$t" || continue; p=${t%%:*}; kill -s "$1" -- "-$p" 2>/dev/null; kill -s "$1" -- "$p" 2>/dev/null; done; }',
  'alive() { kill -s 0 -- "-$1" 2>/dev/null && return 0; for t in $d; do same "$t" && return 0; done; return 1; }',
  'alive "$1" || exit 0',
  'end TERM "$1"',
  // The grace period in 50 ms steps, cut short as soon as the group (and every listed descendant) is gone.
  'i=0',
  'while [ "$i" -lt "$2" ] && alive "$1"; do sleep 0.05; i=$((i + 1)); done',
  'end KILL "$1"',
].join('\n')

export interface SpawnGroupOptions {
  env: NodeJS.ProcessEnv
  cwd?: string
  /** stdin, stdout, stderr; default all pipes. */
  stdio?: [IOType, IOType, IOType]
  /** When the owner dies: SIGTERM to the group, then SIGKILL this much later. */
  graceMs: number
  /**
   * Run `command` through the platform's shell (`/bin/sh -c` on POSIX), as a command line a user
   * typed (the conformance kit's `--driver "node my-driver.mjs --flag"`); `args` must be empty.
   */
  shell?: boolean
  /**
   * Also end the server's descendants that left its group (setsid, a daemon), found by descent
   * while the server runs: when the owner dies (the watchdog) or kills what it tracks (the exit
   * hook, a handled signal). For a child whose whole tree belongs to the owner, however it was
   * started (the kit's drivers); a server of the bridge may start a daemon on purpose, so off by default.
   */
  takeDescendants?: boolean
}

export interface GroupProcess {
  child: ChildProcess
  /** The server's own pid, which is also its process group's id. */
  readonly pid: number | undefined
  /** The watchdog's pid; undefined without one (Windows, or a server that did not start). */
  readonly watchdog: Promise<number | undefined>
  /** Settles once the server has exited (or never started). */
  readonly exited: Promise<void>
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
  const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio, detached: groupsSupported, shell: options.shell ?? false, windowsHide: true })
  let watchdogEnded: Promise<void> = Promise.resolve()
  const watchdog = new Promise<number | undefined>((resolve) => {
    child.once('error', () => resolve(undefined))
    child.once('spawn', () => {
      if (!groupsSupported || child.pid === undefined) return resolve(undefined)
      trackGroup(child.pid, { takeDescendants: options.takeDescendants ?? false })
      const started = startWatchdog(child, child.pid, options.graceMs, options.takeDescendants ?? false)
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
    exited: serverEnded,
    ended,
  }
}

const lifelines = new Set<Writable>()

function startWatchdog(server: ChildProcess, group: number, graceMs: number, takeDescendants: boolean): { pid: number | undefined; ended: Promise<void> } {
  const steps = String(Math.ceil(Math.max(0, graceMs) / 50))
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'mcp-watchdog', String(group), steps, takeDescendants ? '1' : '0'], {
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

/** `signal` to the child's whole group; without groups (Windows), to the child itself while it runs. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || signalGroup(child.pid, signal)) return
  if (child.exitCode === null && child.signalCode === null) child.kill(signal)
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
