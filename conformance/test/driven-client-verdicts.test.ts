import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { DRIVER_BOUNDS, driverAdapter } from '../src/client/driver/adapter.ts'
import { parseDriverLine } from '../src/client/driver/protocol.ts'
import { judgeWireLog } from '../src/client/judge.ts'
import { loadScenarios } from '../src/client/load.ts'
import { isAlive } from '../src/client/processes.ts'
import { runScenario } from '../src/client/run-scenario.ts'
import type { SuiteResult } from '../src/model.ts'

// A driven client is judged on what the spec asks of every client, and a broken driver is a
// harness error: each case here is a run of a real client (the SDK's, through a driver) that the
// kit once judged wrongly (support/faulty-client-driver.mjs, support/harness-driver.mjs).
const scenarios = new Map(loadScenarios().map((loaded) => [loaded.scenario.id, loaded]))
const FAULTY = `node ${new URL('./support/faulty-client-driver.mjs', import.meta.url).pathname}`
const HARNESS = `node ${new URL('./support/harness-driver.mjs', import.meta.url).pathname}`

const run = (driver: string, id: string, transport: 'stdio' | 'http') => runScenario(scenarios.get(id)!, transport, driverAdapter(driver), { updateSnapshots: false })
const check = (result: SuiteResult, id: string) => result.checks.find((c) => c.id === id)
const verdicts = (result: SuiteResult) => result.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}: ${c.message}`)

describe('a correct client is not failed for what no rule forbids', () => {
  it('listing twice (a cache warmed at connect): clean-discovery does not count lists, pagination counts each discovery', async () => {
    const clean = await run(`${FAULTY} list-twice`, 'clean-discovery', 'stdio')
    expect(check(clean, 'expect/received/tools/list')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^not applicable: one tools\/list per discovery/) })
    expect(verdicts(clean)).toEqual([])
    const pages = await run(`${FAULTY} list-twice`, 'pagination', 'stdio')
    expect(check(pages, 'expect/received/tools/list')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^2 discoveries of 6, 6 requests/) })
  })

  it('a client that follows only the first page is warned (each discovery is counted; following pages is a SHOULD)', async () => {
    const result = await run(`node ${new URL('./support/broken-sdk-driver.mjs', import.meta.url).pathname} first-page-only`, 'pagination', 'stdio')
    expect(check(result, 'expect/received/tools/list')).toMatchObject({ status: 'warn', message: expect.stringMatching(/^discovery 1 sent 1 tools\/list, expected at least 6.*Support both paginated and non-paginated flows/) })
  })

  it('replaying the call that met a 404 in the new session: only the new initialize is judged', async () => {
    const result = await run(`${FAULTY} retry-after-404`, 'http-404-session-expiry', 'http')
    expect(check(result, 'expect/call-2')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^not applicable: whether the call that met the 404 is replayed/) })
    expect(check(result, 'expect/received/tools/call')).toMatchObject({ status: 'pass', message: expect.stringContaining('(not applicable to this client: max 2: a client may replay') })
    expect(check(result, 'expect/received/initialize')).toMatchObject({ status: 'pass' })
    expect(result.checks.filter((c) => c.status === 'fail')).toEqual([])
  })

  it('a tool the client does not offer is not called under a made-up name', async () => {
    const result = await run(`${FAULTY} hide-add`, 'clean-discovery', 'stdio')
    expect(check(result, 'expect/call-2')).toMatchObject({ status: 'skip', message: 'nothing to judge: the client does not offer add (it offers echo), so the kit did not call it' })
    expect(check(result, 'invariant/raw-names-on-wire')).toMatchObject({ status: 'pass' })
    expect(JSON.stringify(result.checks)).not.toContain('(no tool for')
  })

  it('an abort that returns only at the call timeout is a SHOULD breached, a warning', async () => {
    const result = await run(`${FAULTY} abort-waits`, 'caller-abort', 'stdio')
    expect(check(result, 'timing/step-1')).toMatchObject({ status: 'warn', message: expect.stringContaining('SHOULD ignore any response to the request that arrives afterward') })
    expect(result.checks.filter((c) => c.status === 'fail')).toEqual([])
  })
})

describe('judge --wire applies the same client rules', () => {
  async function record(id: string, drive: (client: Client) => Promise<void>): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'judge-rules-'))
    const wire = join(dir, 'wire.jsonl')
    const { command, args } = fixtureCommand(scenarios.get(id)!.file)
    const client = new Client({ name: 'outside', version: '1' })
    await client.connect(new StdioClientTransport({ command, args: [...args, '--wire', wire] }))
    await client.listTools()
    await drive(client)
    await client.close()
    return wire
  }

  it('a bound kept for bridges is not applicable, a missing cancellation is a warning', async () => {
    const clean = await record('clean-discovery', async (client) => {
      await client.callTool({ name: 'echo', arguments: { message: 'hi' } })
      await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
      await client.callTool({ name: 'echo', arguments: { message: 3 } })
    })
    expect(check(judgeWireLog(clean, scenarios.get('clean-discovery')!.scenario), 'expect/received/tools/call')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^not applicable: /) })
    const timeout = await record('call-timeout-sends-cancelled', async (client) => {
      void client.callTool({ name: 'stuck', arguments: {} }, undefined, { timeout: 60_000 }).catch(() => {})
      await new Promise((resolve) => setTimeout(resolve, 200))
    })
    expect(check(judgeWireLog(timeout, scenarios.get('call-timeout-sends-cancelled')!.scenario), 'expect/received/notifications/cancelled')).toMatchObject({ status: 'warn', message: expect.stringContaining('a SHOULD for clients') })
    rmSync(join(clean, '..'), { recursive: true, force: true })
    rmSync(join(timeout, '..'), { recursive: true, force: true })
  })
})

describe('the kit leaves no process behind', () => {
  it('orphans it judged are stopped, with their groups, once judged', async () => {
    const result = await run(`${FAULTY} detached-server`, 'shutdown-kills-the-process-group', 'stdio')
    const orphans = check(result, 'invariant/no-orphans')!
    expect(orphans.status).toBe('warn')
    const pids = [...orphans.message.matchAll(/pid (\d+) still alive/g)].map((m) => Number(m[1]))
    expect(pids.length).toBeGreaterThan(0)
    expect(pids.filter(isAlive)).toEqual([])
  })

  it('a process the driver started in a new session is stopped and reported', async () => {
    const result = await run(`${HARNESS} background-escape`, 'clean-discovery', 'stdio')
    const leftover = check(result, 'harness/leftover-processes')!
    expect(leftover).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Information: .*: \d+: sleep 300$/) })
    expect(isAlive(Number(/(\d+): sleep 300/.exec(leftover.message)![1]))).toBe(false)
  })
})

describe('a broken driver is a harness error, never a verdict', () => {
  it('a driver that exits mid-run: an error at once, and no verdicts beside it', async () => {
    const started = performance.now()
    const result = await run(`${HARNESS} crash-on-call`, 'clean-discovery', 'stdio')
    // Below one call wait of the kit: the old code waited it out for every request after the exit.
    expect(performance.now() - started).toBeLessThan(DRIVER_BOUNDS.callMs)
    expect(result.checks.map((c) => [c.id, c.status, c.message])).toEqual([['harness/driver', 'error', 'the driver exited (code 3) before the kit closed it']])
  })

  it('a driver that never answers connect (its client never reached the server) is an error after the connect bound', async () => {
    const started = performance.now()
    const result = await run(`${HARNESS} silent`, 'clean-discovery', 'stdio')
    // The connect bound and no more: the old code went on to wait for lists and calls.
    expect(performance.now() - started).toBeLessThan(DRIVER_BOUNDS.connectMs + DRIVER_BOUNDS.listMs)
    expect(result.checks).toEqual([expect.objectContaining({ id: 'harness/run', status: 'error', message: expect.stringMatching(/^the driver never answered "connect" and its client never reached the server/) })])
  })

  it('an answer of the wrong shape is named in one line, and its wait ends at once', async () => {
    const started = performance.now()
    const result = await run(`${HARNESS} bad-content`, 'clean-discovery', 'stdio')
    expect(performance.now() - started).toBeLessThan(DRIVER_BOUNDS.callMs)
    expect(result.checks.map((c) => [c.id, c.status, c.message])).toEqual([['harness/driver', 'error', '"result" .content must be an array of content blocks, got "not an array"']])
    expect(parseDriverLine('{"id":1,"ok":true,"features":5}')).toEqual({ invalid: '"features" must be an array of strings, got 5' })
    expect(parseDriverLine('{"id":1,"ok":true,"result":{"content":[{"type":"text","text":{"a":1}}]}}')).toEqual({ invalid: '"result" .content[0].text must be a string, got {"a":1}' })
  })

  it('an answer to no request comes without verdicts', async () => {
    const result = await run(`${HARNESS} dup-answer`, 'clean-discovery', 'stdio')
    expect(result.checks.map((c) => [c.id, c.status])).toEqual([['harness/driver', 'error']])
  })
})

describe('a bridge-only or keyword-less expectation never fails a driven client', () => {
  it('a client that loops on pagination and re-lists on every list_changed gets information only, and the run exits 0', async () => {
    const { execFile } = await import('node:child_process')
    const dir = mkdtempSync(join(tmpdir(), 'loop-relist-'))
    try {
      const driver = `node ${new URL('./support/broken-sdk-driver.mjs', import.meta.url).pathname} unbounded-pagination+relist-per-notification`
      const ids = ['pagination-repeating-cursor', 'pagination-cyclic-cursor', 'list-changed-storm', 'list-changed-debounce-coalesces-a-burst']
      const cli = new URL('../bin/mcp-conformance.js', import.meta.url).pathname
      const args = [cli, 'client', '--transport', 'stdio', '--driver', driver, '--report-dir', dir, ...ids.flatMap((id) => ['--scenario', id])]
      const code = await new Promise<number | null>((resolve) => execFile(process.execPath, args, { timeout: 300_000 }, (error) => resolve(error ? ((error as { code?: number }).code ?? null) : 0)))
      const { readFileSync } = await import('node:fs')
      const report = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { suites: SuiteResult[] }
      const checks = report.suites.flatMap((suite) => suite.checks.map((c) => ({ suite: suite.id, ...c })))
      expect(checks.filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error').map((c) => `${c.suite} ${c.id}: ${c.message}`)).toEqual([])
      // The loops and re-lists were seen, and reported as what they are.
      const lists = checks.filter((c) => c.id === 'expect/received/tools/list')
      expect(lists.length).toBe(ids.length)
      expect(lists.filter((c) => c.status === 'skip' && c.message.startsWith('Information (no requirement for clients)')).length).toBeGreaterThanOrEqual(3)
      expect(code).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
