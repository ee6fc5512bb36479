import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { registry } from './registry.ts'

export interface TempDir {
  path: string
  /** Removes it now (idempotent); it is no longer the exit hook's. */
  remove(): void
}

/**
 * A fresh directory in the OS temp directory, removed by `remove()`, or else when the process
 * exits, or on SIGINT/SIGTERM when signal handling is installed (shutdown.ts).
 */
export function makeTempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix))
  const { tempDirs } = registry()
  tempDirs.add(path)
  return {
    path,
    remove: () => {
      tempDirs.delete(path)
      rmSync(path, { recursive: true, force: true })
    },
  }
}
