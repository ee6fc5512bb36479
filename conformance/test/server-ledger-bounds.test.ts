/**
 * A stdio server (a real process) that floods the kit with bad envelopes and server→client
 * requests: the ledger counts and judges every one on arrival and keeps only the first few as
 * evidence, and the verdicts still report the full counts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { judgeEnvelope, judgeServerRequests } from '../src/server/evaluate/envelope.ts'
import { KEEP_FINDINGS_PER_RULE, KEEP_REQUESTS_PER_KIND } from '../src/server/wire/ledger.ts'
import { StdioWire } from '../src/server/wire/stdio.ts'

const N = 3_000
const V = '2025-11-25'

const SERVER = `
import { createInterface } from 'node:readline'
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n')
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line)
  if (m.method !== 'initialize') return
  let out = ''
  for (let i = 0; i < ${N}; i++) {
    // A wrong version on a response to no request: two findings each (jsonrpc/version, jsonrpc/response-ids).
    out += JSON.stringify({ jsonrpc: '1.0', id: 'stray-' + i, result: {} }) + '\\n'
    // A request for a capability the kit never declared, before notifications/initialized.
    out += JSON.stringify({ jsonrpc: '2.0', id: i, method: 'sampling/createMessage', params: {} }) + '\\n'
  }
  process.stdout.write(out)
  send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '${V}', capabilities: {}, serverInfo: { name: 'flood', version: '1' } } })
})
process.stdin.on('end', () => process.exit(0))
`

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-ledger-'))
  await writeFile(join(dir, 'flood.mjs'), SERVER)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('the ledger under a flood', () => {
  it('keeps the first few findings and server requests, counts all, and the verdicts report the counts', async () => {
    const wire = await StdioWire.start({ command: process.execPath, args: [join(dir, 'flood.mjs')] })
    if ('error' in wire) throw new Error(wire.error)
    try {
      const init = await wire.request('initialize', { protocolVersion: V, capabilities: {}, clientInfo: { name: 't', version: '1' } }, 30_000)
      expect(init.kind).toBe('result')
      const { ledger } = wire
      expect(ledger.findingCount('version')).toBe(N)
      expect(ledger.findingCount('response-ids')).toBe(N)
      expect(ledger.findings.length).toBe(2 * KEEP_FINDINGS_PER_RULE)
      expect(ledger.requestCounts).toMatchObject({ all: N, undeclared: N, earlyOther: N, early: N, pings: 0 })
      expect(ledger.serverRequests.length).toBe(KEEP_REQUESTS_PER_KIND)

      const envelope = judgeEnvelope([ledger], V)
      expect(envelope.find((c) => c.id === 'jsonrpc/version')).toMatchObject({ status: 'fail', message: expect.stringMatching(new RegExp(`\\(and ${N - 1} more\\)$`)) })
      expect(envelope.find((c) => c.id === 'jsonrpc/request-ids')?.message).toBe(`${N} server requests with distinct string or integer ids`)
      const [undeclared, early] = judgeServerRequests([ledger], V)
      expect(undeclared?.message).toBe(`the server sent sampling/createMessage (needs sampling) (${N} such requests in all) although the kit declared no client capabilities; answered with -32601`)
      expect(early?.message).toBe(`"sampling/createMessage" arrived before notifications/initialized (${N} requests in all)`)
    } finally {
      await wire.shutdown(1_000)
    }
  })
})
