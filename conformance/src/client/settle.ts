import { statSync } from 'node:fs'

/** Often enough to see a message arrive, rarely enough to cost nothing. */
const POLL_MS = 10

/**
 * Resolves true once the fixture's wire log has not grown for `quietMs` (counted from the call at
 * the earliest), false if it is still busy after `boundMs`. A behaviour's settle window (a backoff
 * before a retry, a debounce before a re-list) is judged by what the server received over it, not
 * by sleeping a guessed time: a client still sending when the window ends keeps it open.
 */
export async function waitForQuiet(wireFile: string, quietMs: number, boundMs: number): Promise<boolean> {
  const started = performance.now()
  let size = sizeOf(wireFile)
  let lastChange = started
  for (;;) {
    const now = performance.now()
    const current = sizeOf(wireFile)
    if (current !== size) {
      size = current
      lastChange = now
    }
    if (now - lastChange >= quietMs) return true
    if (now - started >= boundMs) return false
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, quietMs - (now - lastChange) + 1)))
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}
