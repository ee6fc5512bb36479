/**
 * lifecycle/initialize-first: a server that sends a notification before it answers initialize
 * breaks "The initialization phase MUST be the first interaction"; a log message or a request (judged
 * by lifecycle/requests-before-initialized) before the answer, and anything after it, do not. Judged from the order of the server's own output.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { judgeInitializeFirst } from '../src/server/evaluate/initialize-first.ts'
import { runServerSuite } from '../src/server/run.ts'
import { Ledger } from '../src/server/wire/ledger.ts'
import { delta, writeRawStdioServer, type StdioFault } from './server-helpers.ts'
import { findCheck } from './support/find-check.ts'

let dir: string
let script: string
let control: SuiteResult

const run = (flags: StdioFault[]) => runServerSuite({ kind: 'stdio', command: process.execPath, args: [script, ...flags] }, { calls: [{ name: 'echo', arguments: { text: 'hi' } }] })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-init-first-'))
  script = await writeRawStdioServer(dir)
  control = await run([])
}, 120_000)
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('lifecycle/initialize-first over stdio', () => {
  it('passes a server that answers initialize before anything else', () => {
    expect(findCheck(control, 'lifecycle/initialize-first')).toMatchObject({ status: 'pass', message: 'no notification but logging came before the answer to initialize on 2 connections' })
  })

  it('fails a server that sends list_changed before its answer to initialize; the checks of notifications now have one to pass', async () => {
    const variant = await run(['--notify-before-init'])
    expect(delta(control, variant)).toEqual({ 'lifecycle/initialize-first': 'fail', 'jsonrpc/notification-ids': 'pass', 'lifecycle/server-notifications': 'pass', 'notifications/tools-list-changed': 'pass' })
    const check = findCheck(variant, 'lifecycle/initialize-first')
    expect(check.message).toBe('the server sent 2 notifications ("notifications/tools/list_changed") before it answered initialize')
    expect(check.spec?.quote).toBe('The initialization phase MUST be the first interaction between client and server.')
  }, 120_000)
})

describe('the ledger: what counts as before initialize', () => {
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }

  it('a request (its own SHOULD NOT) and notifications/message may precede the answer; other notifications may not; after it, anything goes', () => {
    const ledger = new Ledger()
    ledger.sent(initialize)
    ledger.received({ jsonrpc: '2.0', id: 's1', method: 'ping' })
    ledger.received({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'starting' } })
    expect(judgeInitializeFirst([ledger], '2025-11-25').status).toBe('pass')
    ledger.received({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' })
    ledger.received({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } })
    ledger.received({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    expect(ledger.beforeInitializeCount).toBe(1)
    expect(judgeInitializeFirst([ledger], '2025-11-25')).toMatchObject({ status: 'fail', message: 'the server sent 1 notification ("notifications/resources/list_changed") before it answered initialize' })
  })

  it('an error answer to initialize ends the phase too', () => {
    const ledger = new Ledger()
    ledger.sent(initialize)
    ledger.received({ jsonrpc: '2.0', id: 0, error: { code: -32602, message: 'unsupported' } })
    ledger.received({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    expect(ledger.beforeInitializeCount).toBe(0)
  })
})
