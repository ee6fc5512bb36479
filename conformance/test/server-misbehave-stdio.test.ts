/**
 * Deliberately broken stdio servers (one raw script, one fault per flag), each compared with a
 * control run of the same script: exactly the checks that should change, change.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { delta, writeRawStdioServer, type StdioFault } from './server-helpers.ts'

let dir: string
let script: string
let control: SuiteResult

const run = (flags: StdioFault[], options: Partial<ServerRunOptions> = {}) =>
  runServerSuite({ kind: 'stdio', command: process.execPath, args: [script, ...flags] }, options)

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-stdio-'))
  script = await writeRawStdioServer(dir)
  control = await run([], { calls: [{ name: 'echo', arguments: { text: 'hi' } }] })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('a raw stdio server', () => {
  it('the control run is clean: no fail, warn or error', () => {
    expect(control.checks.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).map((c) => `${c.id}: ${c.message}`)).toEqual([])
    expect(control.checks.find((c) => c.id === 'tools/call-invalid-arguments')).toMatchObject({ status: 'pass' })
  })

  it('stdout noise (a console.log and non-JSON-RPC JSON) fails only stdio/stdout-only-jsonrpc', async () => {
    const variant = await run(['--garbage'], { calls: [{ name: 'echo', arguments: { text: 'hi' } }] })
    expect(delta(control, variant)).toEqual({ 'stdio/stdout-only-jsonrpc': 'fail' })
    const check = variant.checks.find((c) => c.id === 'stdio/stdout-only-jsonrpc')
    expect(check?.message).toMatch(/^2 of \d+ stdout lines were not MCP messages; first line 1: "server starting/)
    expect((check?.details as { noise: Array<{ reason: string }> }).noise.map((n) => n.reason)).toEqual(['not JSON', 'not a JSON-RPC message: neither a request, a notification nor a response'])
  })

  it('a server that ignores EOF is ended by SIGTERM, reported as information (the shutdown sequence binds the client)', async () => {
    const variant = await run(['--ignore-eof'], { exitGraceMs: 300, calls: [{ name: 'echo', arguments: { text: 'hi' } }] })
    expect(delta(control, variant)).toEqual({ 'stdio/exit-on-stdin-close': 'skip' })
    expect(variant.checks.find((c) => c.id === 'stdio/exit-on-stdin-close')?.message).toMatch(/^Information .*ended by SIGTERM/)
  })

  it('a child process left running is found, reported (as information) and killed', async () => {
    const variant = await run(['--orphan'], { calls: [{ name: 'echo', arguments: { text: 'hi' } }] })
    expect(delta(control, variant)).toEqual({ 'stdio/no-orphans': 'skip' })
    expect(variant.checks.find((c) => c.id === 'stdio/no-orphans')?.message).toMatch(/^Information .*the harness killed them/)
  })

  it('a crash on tools/list fails the list and what depends on it, and reports the early exit', async () => {
    const variant = await run(['--crash-on-tools-list'])
    const list = variant.checks.find((c) => c.id === 'tools/list')
    expect(list).toMatchObject({ status: 'fail', message: 'page 1 got no response: the server process exited (exit code 3)' })
    expect(variant.checks.find((c) => c.id === 'stdio/exit-on-stdin-close')).toMatchObject({ status: 'skip', message: expect.stringContaining('exited on its own') })
    expect(variant.checks.filter((c) => c.status === 'error')).toEqual([])
  })

  it('a server that never answers initialize fails initialize within the startup timeout', async () => {
    const variant = await run(['--silent-init'], { startupTimeoutMs: 300 })
    expect(variant.checks.map((c) => `${c.id} ${c.status}`)).toEqual([
      'lifecycle/initialize fail',
      'stdio/stdout-only-jsonrpc pass',
      'stdio/utf8 skip',
      'stdio/exit-on-stdin-close pass',
      'stdio/no-orphans pass',
    ])
    expect(variant.checks[0]?.message).toBe('initialize got no response within 300 ms')
  })

  it('a command that cannot be started is a harness error', async () => {
    const suite = await runServerSuite({ kind: 'stdio', command: join(dir, 'no-such-server'), args: [] })
    expect(suite.checks).toEqual([expect.objectContaining({ id: 'lifecycle/initialize', status: 'error', message: expect.stringContaining('ENOENT') })])
  })
})
