/**
 * Process-group hygiene for spawned servers. Each server is started as the leader of its own
 * process group so that, after it exits, anything it left behind can be found and killed.
 */

const live = new Set<number>()
let hooked = false

/** Remembers a group so it is killed even if the harness exits abruptly. */
export function track(pid: number): void {
  live.add(pid)
  if (hooked) return
  hooked = true
  process.once('exit', () => {
    for (const group of live) signalGroup(group, 'SIGKILL')
  })
}

export function untrack(pid: number): void {
  live.delete(pid)
}

export const groupsSupported = process.platform !== 'win32'

/** Sends `signal` to the whole group; false when the group no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  if (!groupsSupported) return false
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    return false
  }
}

/** Waits (polling, bounded by `graceMs`) for every member of the group to be gone. */
export async function groupGone(pid: number, graceMs: number, pollMs = 25): Promise<boolean> {
  const deadline = Date.now() + graceMs
  for (;;) {
    if (!signalGroup(pid, 0)) return true
    if (Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}
