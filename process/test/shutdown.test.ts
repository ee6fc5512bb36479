import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { descendants, survivorsAfter } from '../../test/support/process-tree.ts'
import { startOwner } from './support/run-owner.ts'

/**
 * An owner ended every way it can end: its servers (stubborn ones, with grandchildren) never
 * outlive it, and its temp directories go with it: removed by the owner itself where it gets to
 * run code, and by the temp-dir watchdog where it does not (SIGKILL, a signal it does not handle).
 */
const BOUND_MS = 200 + 1_000

const endings = [
  { name: 'SIGTERM', env: { OWNER_SIGNALS: '1', OWNER_STOP: 'ok' }, end: (pid: number) => process.kill(pid, 'SIGTERM'), exit: { code: 143, signal: null }, stopped: true },
  { name: 'SIGINT', env: { OWNER_SIGNALS: '1', OWNER_STOP: 'ok' }, end: (pid: number) => process.kill(pid, 'SIGINT'), exit: { code: 130, signal: null }, stopped: true },
  { name: 'SIGINT to its process group (Ctrl-C)', env: { OWNER_SIGNALS: '1', OWNER_STOP: 'ok' }, end: (pid: number) => process.kill(-pid, 'SIGINT'), exit: { code: 130, signal: null }, stopped: true },
  { name: 'SIGTERM while a graceful stop hangs (bounded by graceMs)', env: { OWNER_SIGNALS: '1', OWNER_STOP: 'hang', OWNER_GRACE_MS: '300' }, end: (pid: number) => process.kill(pid, 'SIGTERM'), exit: { code: 143, signal: null }, stopped: false },
  { name: 'an uncaught exception', env: { OWNER_END: 'throw' }, exit: { code: 1, signal: null }, stopped: false },
  { name: 'process.exit(0)', env: { OWNER_END: 'exit' }, exit: { code: 0, signal: null }, stopped: false },
  { name: 'SIGTERM without handleSignals (Node dies at once)', env: {}, end: (pid: number) => process.kill(pid, 'SIGTERM'), exit: { code: null, signal: 'SIGTERM' }, stopped: false },
  { name: 'SIGKILL', env: { OWNER_SIGNALS: '1' }, end: (pid: number) => process.kill(pid, 'SIGKILL'), exit: { code: null, signal: 'SIGKILL' }, stopped: false },
] as const

describe('an owner ended', () => {
  it.each(endings)('by $name: no survivors, no temp directory', async (ending) => {
    const owner = startOwner(ending.env)
    const tree = await owner.ready.then(() => descendants(owner.pid)).catch(() => descendants(owner.pid))
    const { tempDir } = await owner.ready.catch(() => JSON.parse(owner.stdout.split('\n')[0]!) as { tempDir: string })
    if ('end' in ending) ending.end(owner.pid)
    expect(await owner.exited).toEqual(ending.exit)
    expect(await survivorsAfter(tree, BOUND_MS)).toEqual([])
    expect(owner.stdout.includes('stopped')).toBe(ending.stopped)
    // Its own temp directory and the per-process root it lives in.
    await expect.poll(() => [tempDir, dirname(tempDir)].filter((dir) => existsSync(dir)), { timeout: BOUND_MS }).toEqual([])
  })
})
