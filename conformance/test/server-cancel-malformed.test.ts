/**
 * "Invalid cancellation notifications SHOULD be ignored: Malformed notifications": a real stdio
 * server process (scripted here) that ignores a notifications/cancelled whose requestId is an
 * object passes lifecycle/cancel-malformed; the same server that exits on one warns.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { findCheck as find, flagged } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

// With the argument "crash" it exits on a cancellation whose requestId is not a string or a number.
const SERVER = lineServerSource(
  `if (process.argv[2] === 'crash') {
  process.stdin.on('data', (chunk) => {
    for (const line of String(chunk).split('\\n')) {
      let m
      try { m = JSON.parse(line) } catch { continue }
      if (m.method === 'notifications/cancelled' && typeof m.params?.requestId === 'object') process.exit(7)
    }
  })
}`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'cancel-server', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: {} }
      : { error: { code: -32601, message: 'Method not found' } }`,
)

const script = lineServerFile(SERVER)

function run(mode: 'ignore' | 'crash'): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), mode] }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000 })
}

describe('a malformed cancellation', () => {
  it('ignored, with a ping answered after it, passes with nothing flagged', async () => {
    const suite = await run('ignore')
    expect(find(suite, 'lifecycle/cancel-malformed')).toMatchObject({ status: 'pass', message: 'ignored, and a ping right after it was answered' })
    expect(flagged(suite)).toEqual([])
  }, 60_000)

  it('a server that exits on it warns lifecycle/cancel-malformed, under the SHOULD', async () => {
    const suite = await run('crash')
    expect(find(suite, 'lifecycle/cancel-malformed')).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/^the server stopped answering: a ping right after it got /),
      spec: { keyword: 'SHOULD', quote: 'Invalid cancellation notifications SHOULD be ignored: Malformed notifications' },
    })
    expect(find(suite, 'lifecycle/cancel-unknown-request')).toMatchObject({ status: 'pass' })
  }, 60_000)
})
