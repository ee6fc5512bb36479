import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { descendants, survivorsAfter, type ProcessEntry } from '../../test/support/process-tree.ts'
import { OWNER_ENDINGS, trackedOwners } from '../../test/support/owner-endings.ts'
import { DRIVER_WATCHDOG_GRACE_MS } from '../src/client/driver/channel.ts'

/**
 * Every process the kit starts ends with it, a driver's included: a driver that ignores SIGTERM,
 * SIGINT, SIGHUP and its stdin's end, and has started a grandchild in a session of its own
 * (setsid) that ignores them too, is gone once the kit is ended by SIGTERM or SIGINT (the kit
 * kills what its registry tracks, the driver's descendants included) or by SIGKILL (the driver's
 * watchdog: SIGTERM, then SIGKILL after DRIVER_WATCHDOG_GRACE_MS). Processes are found by
 * parentage from the kit's pid, with @mcp-bridge/process's reader of the process table.
 */
const BIN = resolve(import.meta.dirname, '../bin/mcp-conformance.js')
const DRIVER = resolve(import.meta.dirname, 'support/hostile-driver.mjs')
/** How long exit takes to land once the last signal is sent (the owner tests' allowance). */
const AFTER_MS = 1_000
/** A kit start, a driver start and a setsid start, on shared cores. */
const READY_MS = 30_000

const work = mkdtempSync(join(tmpdir(), 'kit-driver-owner-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const running = trackedOwners()
const endings = OWNER_ENDINGS.filter((ending) => ['SIGTERM', 'SIGINT', 'SIGKILL'].includes(ending.name))

describe('mcp-conformance client --driver as owner', () => {
  it.each(endings)('ended by $name: the driver, which ignores it, and its setsid grandchild are gone within the kill grace', async (ending) => {
    const temp = mkdtempSync(join(work, 'tmp-'))
    const args = [BIN, 'client', '--driver', `node ${DRIVER} stubborn-tree`, '--scenario', 'dotted-names', '--transport', 'stdio', '--report-dir', join(temp, 'reports')]
    const kit = spawn(process.execPath, args, { env: { ...process.env, TMPDIR: temp }, stdio: ['ignore', 'ignore', 'pipe'], detached: true })
    running.add(kit)
    let stderr = ''
    kit.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)))
    const exited = new Promise((done) => kit.once('exit', (code, signal) => done({ code, signal })))
    // The grandchild: a node that leads a session of its own, below a child of the kit.
    const escaped = (tree: ProcessEntry[]) => tree.filter((entry) => entry.name === 'node' && entry.pgid === entry.pid && entry.ppid !== kit.pid)
    await expect.poll(() => escaped(descendants(kit.pid!)).length, { timeout: READY_MS, interval: 20 }).toBe(1)
    const tree = descendants(kit.pid!)
    ending.end(kit.pid!)
    expect(await exited, stderr).toEqual(ending.exit)
    const grace = ending.name === 'SIGKILL' ? DRIVER_WATCHDOG_GRACE_MS : 0
    expect(await survivorsAfter(tree, grace + AFTER_MS), `the tree was ${JSON.stringify(tree)}`).toEqual([])
  })
})
