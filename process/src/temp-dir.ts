import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { groupsSupported } from './group.ts'
import { registry } from './registry.ts'

export interface TempDir {
  path: string
  /** Removes it now (idempotent); it is no longer the exit hook's. */
  remove(): void
}

/**
 * A fresh directory for this process's temporary files, removed by `remove()`, or else when the
 * process exits, or on SIGINT/SIGTERM when signal handling is installed (shutdown.ts), or, when
 * the process dies without running any code (SIGKILL), by a watchdog. Every such directory lives
 * in one root per process (`<tmp>/mcp-bridge-<pid>-XXXXXX/`), which is what the watchdog removes.
 */
export function makeTempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(processRoot(), prefix))
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

let root: string | undefined

/**
 * This process's root for temp directories, made on first use, with (on POSIX) a watchdog like the
 * servers' (group.ts): an `sh` blocked on a pipe only this process holds, which removes the root
 * once the pipe closes, that is once this process is gone, however it ended.
 */
function processRoot(): string {
  if (root !== undefined) {
    // Recreated if something removed it meanwhile (a cleanup of the OS temp directory).
    mkdirSync(root, { recursive: true })
    return root
  }
  const made = mkdtempSync(join(tmpdir(), `mcp-bridge-${process.pid}-`))
  root = made
  registry().tempDirs.add(made)
  if (groupsSupported) {
    const watchdog = spawn('/bin/sh', ['-c', 'trap "" INT TERM HUP; read _ <&3; rm -rf -- "$1"', 'mcp-tempdir-watchdog', made], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      detached: true,
      env: { PATH: process.env.PATH || '/usr/bin:/bin' },
    })
    watchdog.on('error', () => {})
    const lifeline = watchdog.stdio[3] as Writable & { unref?: () => void }
    lifeline.on('error', () => {})
    // Held for the life of the process (module state), never ended, and keeping nothing alive.
    lifelines.push(lifeline)
    watchdog.unref()
    lifeline.unref?.()
  }
  return made
}

const lifelines: Writable[] = []
