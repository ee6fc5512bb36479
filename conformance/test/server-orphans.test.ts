/**
 * stdio/no-orphans against servers that leave processes behind: one that detaches a child into a
 * session of its own (out of the server's process group), one whose child ignores SIGTERM while
 * the server ignores EOF and SIGTERM. Each child writes its pid to a file, so the test can tell
 * that the kit found it, named it and killed it; real processes, no mocks.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runServerSuite } from '../src/server/run.ts'
import { isRunning } from '../../test/support/process-tree.ts'

let dir: string
let script: string
/** Every pid a server reported: killed by pid after the tests, should the kit have missed one. */
const started = new Set<number>()

const SERVER = `
import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
const [mode, pidFile] = process.argv.slice(2)
const note = (pid) => appendFileSync(pidFile, pid + '\\n')
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n')
if (mode === 'detached') note(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true }).pid)
if (mode === 'stubborn') {
  process.on('SIGTERM', () => {})
  setInterval(() => {}, 1000)
  note(spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' }).pid)
}
const lines = createInterface({ input: process.stdin })
lines.on('close', () => { if (mode !== 'stubborn') process.exit(0) })
lines.on('line', (line) => {
  const m = JSON.parse(line)
  if (m.id === undefined || m.method === undefined) return
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'orphans', version: '1.0.0' } } })
  if (m.method === 'ping') return send({ jsonrpc: '2.0', id: m.id, result: {} })
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } })
})
`

async function run(mode: string) {
  const pidFile = join(dir, `${mode}.pids`)
  await writeFile(pidFile, '')
  const suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [script, mode, pidFile] }, { exitGraceMs: 300 })
  const pids = (await readFile(pidFile, 'utf8')).split('\n').filter(Boolean).map(Number)
  for (const pid of pids) started.add(pid)
  return { check: suite.checks.find((c) => c.id === 'stdio/no-orphans')!, pids, suite }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-orphans-'))
  script = join(dir, 'server.mjs')
  await writeFile(script, SERVER, 'utf8')
})
afterAll(async () => {
  for (const pid of started) {
    try {
      if (isRunning(pid)) process.kill(pid, 'SIGKILL')
    } catch {
      // Gone.
    }
  }
  await rm(dir, { recursive: true, force: true })
})

describe.runIf(process.platform === 'linux')('stdio/no-orphans', () => {
  it('a server that starts nothing passes, saying what the kit looked at', async () => {
    const { check } = await run('plain')
    expect(check.status).toBe('pass')
    expect(check.message).toMatch(/the kit saw no process started by it while it ran and its process group was empty/)
  })

  it('a child detached into its own session is found by descent, in both connections, named, and killed by pid', async () => {
    const { check, pids } = await run('detached')
    expect(pids).toHaveLength(2) // One per server process: the session and the unsupported-version connection.
    expect(check.status).toBe('skip')
    expect(check.message).toMatch(/^Information .*2 processes started by the server were still running after it exited: "node" \(pid \d+, in a process group of its own, found by descent\)/)
    for (const pid of pids) expect(check.message).toContain(`pid ${pid}`)
    // SIGKILLed by the kit before the run returned; polled only for the kernel to finish them.
    await expect.poll(() => pids.filter(isRunning)).toEqual([])
  })

  it('a child that ignores SIGTERM is not hidden by the shutdown signals: they go to the server, not its group', async () => {
    const { check, pids, suite } = await run('stubborn')
    expect(suite.checks.find((c) => c.id === 'stdio/exit-on-stdin-close')?.message).toMatch(/ended by SIGKILL/)
    expect(check.status).toBe('skip')
    expect(check.message).toMatch(/^Information .*still running after it exited: "node" \(pid \d+, in the server's process group\)/)
    await expect.poll(() => pids.filter(isRunning)).toEqual([])
  })
})
