import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * A dispose releases everything its instance allocated: 1,000 hot reloads, each restarting the
 * instance on its fiber with a new config (a connection, a session, a tool registration each),
 * leave the heap after GC within 5 MB of where it was after a warm-up. Cordis kept an instance's
 * `internal/update` hook on the fiber across restarts, and with it the whole connection: the heap
 * grew by about 22 KB a restart. One server against an in-process HTTP fixture keeps a restart
 * to a handshake (no child process per restart), so the thousand run in well under a minute.
 */
describe('hot reloads', () => {
  it('1,000 reloads: the heap after GC ends within 5 MB of where it started', () => {
    const script = fileURLToPath(new URL('./support/reload-heap.mjs', import.meta.url))
    const run = spawnSync(process.execPath, ['--expose-gc', script, '1000', '1'], { encoding: 'utf8', timeout: 170_000 })
    expect(run.status, run.stderr).toBe(0)
    const { start, end, disposed } = JSON.parse(run.stdout) as { start: number; end: number; disposed: number; ms: number }
    const grown = (end - start) / 1024 / 1024
    expect(grown, `heap after GC grew by ${grown.toFixed(2)} MB over 1,000 reloads`).toBeLessThan(5)
    // And the host's dispose leaves no more than the reloads did.
    expect(disposed, `after dispose ${(disposed / 1024 / 1024).toFixed(1)} MB, after the reloads ${(end / 1024 / 1024).toFixed(1)} MB`).toBeLessThanOrEqual(end)
  }, 180_000)
})
