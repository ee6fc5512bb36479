import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { HttpEntry } from '@mcp-bridge/fixtures-server'
import { afterAll, describe, expect, it } from 'vitest'
import { judgeWireLog } from '../src/client/judge.ts'
import { loadScenarios } from '../src/client/load.ts'

const dir = mkdtempSync(join(tmpdir(), 'kit-http-log-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

const unauthorized = loadScenarios().find((loaded) => loaded.scenario.id === 'http-401-unauthorized')!.scenario
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }

/** A wire log as a fixture writes it: the JSON-RPC it read, then the HTTP requests it answered. */
function log(http: Array<HttpEntry['http']>): string {
  const file = join(dir, `wire-${++files}.jsonl`)
  const lines = [{ dir: 'recv', msg: INITIALIZE }, ...http.map((entry) => ({ dir: 'http', http: entry }))]
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
  return file
}

/** The scenario with every bound judged, as for a bridge: what is counted is the point here. */
const everyBound = { ...unauthorized, applies: { ...unauthorized.applies, bridgeOnly: {} } }
const check = (file: string, id: string, scenario = everyBound) => judgeWireLog(file, scenario).checks.find((c) => c.id === id)

describe('judging the HTTP log', () => {
  it('counts a 401 retry as initialize refused again, not every refused request', () => {
    // A version probe, the legacy-SSE GET of the spec's fallback, then initialize: one refusal of initialize.
    const probes = log([
      { method: 'POST', path: '/mcp', rpc: 'server/discover', status: 401 },
      { method: 'GET', path: '/mcp', status: 401 },
      { method: 'POST', path: '/mcp', rpc: 'initialize', status: 401 },
    ])
    expect(check(probes, 'expect/http-status/401/initialize')).toMatchObject({ status: 'pass', message: 'answered 1 to initialize' })
    // Refused at all: every refused request counts.
    expect(check(probes, 'expect/http-status/401')).toMatchObject({ status: 'pass', message: 'answered 3' })
    const retry = log([
      { method: 'POST', path: '/mcp', rpc: 'initialize', status: 401 },
      { method: 'POST', path: '/mcp', rpc: 'initialize', status: 401 },
    ])
    // Counted as two refusals; the bound itself is a breach of no MUST (the scenario's sentence is a SHOULD at most): information for a client.
    expect(check(retry, 'expect/http-status/401/initialize')).toMatchObject({ status: 'skip', message: expect.stringContaining('answered 2 to initialize, expected at most 1') })
    // A wire log is a client's: stopping after the first 401 is the bridge's promise, not the spec's.
    expect(check(retry, 'expect/http-status/401/initialize', unauthorized)).toMatchObject({ status: 'skip', message: expect.stringMatching(/not applicable/) })
  })

  it('holds a client to its session once initialize was answered and it went on with notifications/initialized', () => {
    const abandoned = log([
      { method: 'POST', path: '/mcp', rpc: 'initialize', status: 200 },
      { method: 'GET', path: '/mcp', status: 400 },
    ])
    expect(check(abandoned, 'invariant/http-session-header')).toMatchObject({ status: 'skip' })
    const turnedDown = log([
      { method: 'POST', path: '/mcp', rpc: 'initialize', status: 200, newSession: 's1' },
      { method: 'GET', path: '/mcp', status: 400 },
    ])
    expect(check(turnedDown, 'invariant/http-session-header')).toMatchObject({ status: 'skip' })
    const taken = log([
      { method: 'POST', path: '/mcp', rpc: 'initialize', status: 200, newSession: 's1' },
      { method: 'POST', path: '/mcp', rpc: 'notifications/initialized', status: 202, session: 's1' },
      { method: 'GET', path: '/mcp', status: 400 },
    ])
    expect(check(taken, 'invariant/http-session-header')).toMatchObject({ status: 'fail' })
  })
})
