import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import { afterAll, describe, expect, it } from 'vitest'
import { descendants, survivorsAfter, type ProcessEntry } from '../../test/support/process-tree.ts'
import { OWNER_ENDINGS, trackedOwners, type OwnerEnding } from '../../test/support/owner-endings.ts'

/**
 * mcp-conformance, in both modes, ended by every signal while it runs servers: SIGINT and SIGTERM
 * end it with 130 and 143, and within one second no process it started is left (a server that
 * ignores EOF and SIGTERM, and its grandchild, included), and no temp directory. Processes are
 * found by parentage from the pid this test started; each run gets its own TMPDIR.
 */
const BIN = resolve(import.meta.dirname, '../bin/mcp-conformance.js')
const AFTER_MS = 1_000
/** How long a run may take to have its servers up: a kit start plus a fixture start, on shared cores. */
const READY_MS = 30_000

const work = mkdtempSync(join(tmpdir(), 'kit-owner-test-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const running = trackedOwners()
const endings = OWNER_ENDINGS

/**
 * Starts the kit in its own process group with a TMPDIR of its own; resolves once `census` finds
 * what it is waiting for among the kit's descendants.
 */
async function runKit(args: string[], census: (tree: ProcessEntry[]) => boolean, ending: OwnerEnding) {
  const temp = mkdtempSync(join(work, 'tmp-'))
  const [mode, ...rest] = args
  const child = spawn(process.execPath, [BIN, mode!, '--report-dir', join(temp, '..', `reports-${Date.now()}`), ...rest], {
    env: { ...process.env, TMPDIR: temp },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  })
  running.add(child)
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })))
  await expect.poll(() => census(descendants(child.pid!)), { timeout: READY_MS, interval: 20 }).toBe(true)
  const tree = descendants(child.pid!)
  ending.end(child.pid!)
  expect(await exited, stderr).toEqual(ending.exit)
  expect(await survivorsAfter(tree, AFTER_MS)).toEqual([])
  await expect.poll(() => readdirSync(temp), { timeout: AFTER_MS }).toEqual([])
  return { tree, stderr }
}

describe('mcp-conformance server as owner', () => {
  // Never answers initialize, ignores EOF and SIGTERM, outlives its parent, and so does its grandchild.
  const stubborn = fixtureCommand({
    tools: [{ name: 'echo' }],
    crash: { hangOn: ['initialize'] },
    stdio: { ignoreEof: true, ignoreSigterm: true, outliveParent: true, grandchild: true },
  })
  it.each(endings)('ended by $name while it waits for the server: zero survivors', async (ending) => {
    const args = ['server', '--startup-timeout', '60000', '--', stubborn.command, ...stubborn.args]
    // The server, its grandchild and its watchdog.
    const { tree } = await runKit(args, (tree) => tree.length >= 3, ending)
    expect(tree.length).toBeGreaterThanOrEqual(3)
  })
})

describe('mcp-conformance client as owner', () => {
  it.each(endings)('ended by $name in the middle of a run: zero survivors, no temp directory', async (ending) => {
    // Every stdio scenario: whenever the census looks, a fixture runs under the plugin the kit hosts.
    // The temp-dir watchdog, a fixture server and that server's watchdog.
    // One run at a time (--jobs 1): the census counts one fixture and its watchdogs.
    await runKit(['client', '--transport', 'stdio', '--jobs', '1'], (tree) => tree.length >= 3, ending)
  })
})
