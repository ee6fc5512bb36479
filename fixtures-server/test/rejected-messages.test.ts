import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureCommand, readHttpLog, readWireFile, startHttpFixture } from '../src/index.ts'

const dir = mkdtempSync(join(tmpdir(), 'rejected-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }

/** Writes lines to a real stdio fixture, ends its stdin and waits for it to exit. */
async function stdioWire(lines: string[]) {
  const wireFile = join(dir, `stdio-${Math.random().toString(36).slice(2)}.jsonl`)
  const { command, args } = fixtureCommand({ tools: [{ name: 'echo' }] })
  const child = spawn(command, [...args, '--wire', wireFile], { stdio: ['pipe', 'ignore', 'ignore'] })
  const exited = new Promise((done) => child.once('exit', done))
  child.stdin.end(lines.map((line) => `${line}\n`).join(''))
  await exited
  return readWireFile(wireFile)
}

describe('what the SDK refuses is logged as sent, marked invalid', () => {
  it('stdio: a line that is not JSON, a request with id null and one with jsonrpc "1.0", in order among the valid ones', async () => {
    const wire = await stdioWire([
      JSON.stringify(INITIALIZE),
      'not json',
      JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list' }),
      JSON.stringify({ jsonrpc: '1.0', id: 2, method: 'tools/list' }),
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
    ])
    const received = wire.filter((entry) => entry.dir === 'recv')
    expect(received).toEqual([
      { dir: 'recv', msg: INITIALIZE },
      { dir: 'recv', msg: {}, invalid: { reason: 'not JSON', raw: 'not json' } },
      { dir: 'recv', msg: { jsonrpc: '2.0', id: null, method: 'tools/list' }, invalid: { reason: expect.any(String) } },
      { dir: 'recv', msg: { jsonrpc: '1.0', id: 2, method: 'tools/list' }, invalid: { reason: expect.any(String) } },
      { dir: 'recv', msg: { jsonrpc: '2.0', id: 3, method: 'ping' } },
    ])
  })

  it('HTTP: a POSTed request with id null is logged, and every request\'s Accept header', async () => {
    const wireFile = join(dir, 'http.jsonl')
    const fixture = await startHttpFixture({ tools: [{ name: 'echo' }] }, { wireFile })
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
      const opened = await fetch(fixture.url, { method: 'POST', headers, body: JSON.stringify(INITIALIZE) })
      await opened.text()
      const session = opened.headers.get('mcp-session-id')!
      const refused = await fetch(fixture.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session, accept: 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list' }) })
      await refused.text()
    } finally {
      await fixture.close()
    }
    const invalid = readWireFile(wireFile).filter((entry) => entry.invalid)
    expect(invalid).toEqual([{ dir: 'recv', msg: { jsonrpc: '2.0', id: null, method: 'tools/list' }, invalid: { reason: expect.any(String) } }])
    expect(readHttpLog(wireFile).map((request) => request.accept)).toEqual(['application/json, text/event-stream', 'application/json'])
  })
})
