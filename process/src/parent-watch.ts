/**
 * The parent-death watch: a long-running owner (the `mcp-bridge` host) that notices the process
 * that started it is gone, and stops.
 *
 * Why it is needed: launchers such as `npm exec` / `npx` run the bin as a grandchild (npm, then
 * `sh -c`, then node) and do not pass SIGTERM on, so a supervisor that signals the process it
 * started kills the launcher and leaves the host, adopted by PID 1 (or a subreaper), running with
 * its servers. The host's own servers are covered by their watchdogs when the host dies; this is
 * the same rule one level up, for a host that is left alive.
 *
 * Why polling `process.ppid`: on POSIX a process whose parent exits is re-parented at that moment,
 * so a changed `ppid` is certain and costs one syscall per tick. The alternatives are not robust:
 * stdin EOF means nothing under a supervisor (stdin is often /dev/null, at EOF from the start) and
 * `npm exec` hands its own stdin through, so its death closes nothing; Linux's PR_SET_PDEATHSIG is
 * not reachable from Node. Windows does not re-parent, so there the recorded parent's liveness is
 * asked too (`kill(pid, 0)`); a reused pid can only make the watch miss, never stop a host wrongly.
 *
 * Why a launcher's shell is looked through: `npm exec` starts the bin with `sh -c`, and a shell
 * running a command stays as its parent. npm passes SIGTERM to that shell, which dies with it, but
 * a SIGKILLed npm leaves the shell adopted by PID 1 and waiting on the host, whose own parent never
 * changed. So when the parent is a shell running `-c`, which exists only to run this process, its
 * own parent is watched too (Linux, where /proc tells both). A shell of a user's (no `-c`) is not.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { readProc } from './tree.ts'

const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'ksh'])

/** How often the parent is checked by default: a stop is noticed within one interval. */
export const DEFAULT_PARENT_POLL_MS = 1_000

export interface ParentWatchOptions {
  /** Check interval in milliseconds (default 1 s). */
  intervalMs?: number
}

/**
 * Calls `shutdown` once when the process that was this process's parent at the call has exited;
 * returns the function that stops watching. The timer is unref'd: it never keeps the process
 * alive. A process already adopted by PID 1 when it starts has no launcher to outlive, so nothing
 * is watched (a container's entry process or a supervisor's direct child is such a process when
 * its parent is init, and must not stop).
 */
export function watchParent(shutdown: (parent: number) => void, options: ParentWatchOptions = {}): () => void {
  const parent = process.ppid
  const intervalMs = options.intervalMs ?? DEFAULT_PARENT_POLL_MS
  if (!Number.isInteger(intervalMs) || intervalMs < 1) throw new RangeError(`watchParent: intervalMs must be a positive integer (got ${intervalMs})`)
  if (parent <= 1) return () => {}
  const launcher = launcherOf(parent)
  const timer = setInterval(() => {
    if (!parentGone(parent) && (launcher === undefined || readProc(parent)?.ppid === launcher)) return
    clearInterval(timer)
    shutdown(parent)
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}

function parentGone(parent: number): boolean {
  if (process.ppid !== parent) return true
  try {
    process.kill(parent, 0)
    return false
  } catch (error) {
    // EPERM: it exists under another user. Only "no such process" means gone.
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** The parent's own parent, when the parent is a shell running `-c` (a launcher's); else undefined. */
function launcherOf(parent: number): number | undefined {
  if (process.platform !== 'linux') return undefined
  try {
    const argv = readFileSync(`/proc/${parent}/cmdline`, 'utf8').split('\0')
    if (!SHELLS.has(basename(argv[0] ?? '')) || !argv.includes('-c')) return undefined
  } catch {
    return undefined
  }
  const ppid = readProc(parent)?.ppid
  return ppid !== undefined && ppid > 1 ? ppid : undefined
}
