import { fstatSync } from 'node:fs'

/** How often a fixture checks that its parent is still alive. */
const PARENT_POLL_MS = 250

/**
 * A fixture must never outlive whoever started it: it ends when its parent dies (it gets
 * re-parented, so `ppid` changes) and, when stdin is a pipe, when stdin closes.
 */
export function endWithParent(end: () => void, watchStdin: boolean): void {
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) end()
  }, PARENT_POLL_MS).unref()
  if (!watchStdin) return
  process.stdin.once('end', end)
  process.stdin.once('close', end)
  process.stdin.resume()
}

/** True when stdin is a pipe or socket someone holds open (not /dev/null, not a terminal). */
export function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0)
    return stat.isFIFO() || stat.isSocket()
  } catch {
    return false
  }
}
