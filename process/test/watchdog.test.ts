import { chmodSync, existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { groupGone, signalGroup, spawnGroup } from '../src/index.ts'
import { descendants, processTable, survivorsAfter } from '../../test/support/process-tree.ts'
import { makeTempDir } from '../src/temp-dir.ts'
import { startOwner } from './support/run-owner.ts'

/** The watchdog's own grace in support/owner.mjs, then room for scheduling on shared cores. */
const BOUND_MS = 200 + 1_000

describe('spawnGroup', () => {
  it('a SIGKILLed owner takes its server (which ignores EOF and SIGTERM) and the grandchild with it', async () => {
    const owner = startOwner({})
    const { server } = await owner.ready
    const tree = descendants(owner.pid)
    // The server and its grandchild in the server's group; the server's watchdog and the temp-dir
    // watchdog, the owner's other children, each in a session of its own.
    expect(tree).toHaveLength(4)
    expect(tree.filter((entry) => entry.pgid === server)).toHaveLength(2)
    owner.child.kill('SIGKILL')
    await owner.exited
    expect(await survivorsAfter(tree, BOUND_MS)).toEqual([])
  })

  it('the server keeps its own pid, leads its group, and its exit releases the watchdog (orphans stay for the owner to judge)', async () => {
    const group = spawnGroup('/bin/sh', ['-c', 'sleep 30 & echo $$; exit 3'], { env: process.env, graceMs: 100 })
    const said = await new Promise<string>((resolve) => group.child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())))
    expect(Number(said)).toBe(group.pid)
    const watchdog = await group.watchdog
    expect(watchdog).toBeGreaterThan(0)
    const code = await new Promise((resolve) => group.child.once('exit', resolve))
    expect(code).toBe(3)
    // The watchdog leaves at once (reaped by this process: no zombie); `sleep` is an orphan the group still holds.
    await group.ended
    expect(processTable().some((entry) => entry.pid === watchdog)).toBe(false)
    expect(await groupGone(group.pid!, 300)).toBe(false)
    signalGroup(group.pid!, 'SIGKILL')
    // Polled on the table: an orphan killed is a zombie until PID 1 reaps it, and kill(-pgid, 0) still finds zombies.
    await expect.poll(() => processTable().filter((entry) => entry.pgid === group.pid && !entry.zombie)).toEqual([])
  })

  it("a command that cannot run fails with Node's own spawn error", async () => {
    const missing = spawnGroup('mcp-no-such-command', [], { env: process.env, graceMs: 100 })
    expect(await new Promise((resolve) => missing.child.once('error', resolve))).toMatchObject({ code: 'ENOENT' })
    const dir = makeTempDir('watchdog-test-')
    const file = join(dir.path, 'not-executable')
    writeFileSync(file, '#!/bin/sh\n')
    chmodSync(file, 0o644)
    const denied = spawnGroup(file, [], { env: process.env, graceMs: 100 })
    expect(await new Promise((resolve) => denied.child.once('error', resolve))).toMatchObject({ code: 'EACCES' })
    dir.remove()
    expect(existsSync(dir.path)).toBe(false)
  })
})
