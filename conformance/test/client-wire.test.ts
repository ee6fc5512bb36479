import type { WireEntry } from '@mcp-bridge/fixtures-server'
import { isSecretName, isSecretValue } from '@mcp-bridge/process'
import { describe, expect, it } from 'vitest'
import { checkCancellations } from '../src/client/cancellation.ts'
import { driverAdapter } from '../src/client/driver/adapter.ts'
import { checkHttpInvariants } from '../src/client/http-invariants.ts'
import { checkEnvelope } from '../src/client/invariants.ts'
import { loadScenarios } from '../src/client/load.ts'
import { runScenario } from '../src/client/run-scenario.ts'

const scenarios = new Map(loadScenarios().map((loaded) => [loaded.scenario.id, loaded]))
const FAULTY = new URL('./support/wire-faulty-driver.mjs', import.meta.url).pathname

const recv = (msg: object, invalid?: WireEntry['invalid']): WireEntry => ({ dir: 'recv', msg: msg as never, ...(invalid ? { invalid } : {}) })
const init = recv({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } })
const initialized = recv({ jsonrpc: '2.0', method: 'notifications/initialized' })
const refused = { reason: 'not a JSON-RPC message the schema accepts' }

describe('invariant/jsonrpc: the envelope of every message the client sent', () => {
  it('fails on jsonrpc other than "2.0", a null id, an id that is no string or integer, a notification with an id, citing the sentence', () => {
    const cases: Array<[WireEntry, string, RegExp]> = [
      [recv({ jsonrpc: '1.0', id: 2, method: 'tools/call' }, refused), 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.', /tools\/call carried jsonrpc "1.0"/],
      [recv({ jsonrpc: '2.0', id: null, method: 'tools/call' }, refused), 'Unlike base JSON-RPC, the ID MUST NOT be null.', /request tools\/call carried id null/],
      [recv({ jsonrpc: '2.0', id: 1.5, method: 'tools/list' }, refused), 'Requests MUST include a string or integer ID.', /carried id 1.5, neither a string nor an integer/],
      [recv({ jsonrpc: '2.0', id: 77, method: 'notifications/initialized' }), 'Notifications MUST NOT include an ID.', /notifications\/initialized carried id 77/],
      [recv({}, { reason: 'not JSON', raw: 'garbage' }), 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.', /not JSON: "garbage"/],
    ]
    for (const [entry, quote, message] of cases) {
      const check = checkEnvelope([init, initialized, entry])
      // The sentence's own keyword (MUST NOT where it says so), from the revision's page (2025-11-25 here).
      expect(check).toMatchObject({ id: 'invariant/jsonrpc', status: 'fail', spec: { keyword: quote.includes('MUST NOT') ? 'MUST NOT' : 'MUST', quote, url: expect.stringContaining('/specification/2025-11-25/basic') } })
      expect(check.message).toMatch(message)
    }
    expect(checkEnvelope([init, initialized, recv({ jsonrpc: '2.0', id: 'a', method: 'tools/list' })]).status).toBe('pass')
  })

  it('fails on a request id used twice in one session, and allows it again in a new session (a new initialize)', () => {
    const list = (id: unknown) => recv({ jsonrpc: '2.0', id, method: 'tools/list' })
    const reused = checkEnvelope([init, initialized, list(1), list(1)])
    expect(reused).toMatchObject({ status: 'fail', spec: { quote: 'The request ID MUST NOT have been previously used by the requestor within the same session.' } })
    expect(reused.message).toMatch(/request tools\/list reused id 1/)
    expect(checkEnvelope([init, initialized, list(1), init, initialized, list(1)]).status).toBe('pass')
    // 1 and "1" are different ids.
    expect(checkEnvelope([init, initialized, list(1), list('1')]).status).toBe('pass')
  })

  it('judges a batch by the negotiated revision: allowed up to 2025-03-26, not after', () => {
    const answer = (version: string): WireEntry => ({ dir: 'send', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: version, capabilities: {}, serverInfo: { name: 's', version: '1' } } } as never })
    const batch = recv({}, { reason: 'a JSON array (a batch), which is not one JSON-RPC message', raw: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]) })
    expect(checkEnvelope([init, answer('2025-03-26'), initialized, batch]).status).toBe('pass')
    expect(checkEnvelope([init, answer('2025-11-25'), initialized, batch]).status).toBe('fail')
  })
})

describe('invariant/cancellation with malformed requests', () => {
  it('never says a request was not sent when it was sent malformed', () => {
    const cancel = (requestId: unknown) => recv({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } })
    // Sent with jsonrpc "1.0", id 2: it was sent, so cancelling it is no breach.
    expect(checkCancellations([init, initialized, recv({ jsonrpc: '1.0', id: 2, method: 'tools/call' }, refused), cancel(2)]).status).toBe('pass')
    // Sent with id null: the id the client cancels never was on the wire; the envelope check carries the fault.
    const nullId = checkCancellations([init, initialized, recv({ jsonrpc: '2.0', id: null, method: 'tools/call' }, refused), cancel(2)])
    expect(nullId.status).toBe('skip')
    expect(nullId.message).toMatch(/^Not testable: .*invariant\/jsonrpc reports the failure$/)
    expect(checkCancellations([init, initialized, cancel(2)]).status).toBe('fail')
  })
})

describe('invariant/http-accept', () => {
  const request = (method: string, accept?: string) => ({ method, path: '/mcp', status: 200, ...(accept === undefined ? {} : { accept }) })
  const accept = (http: Parameters<typeof checkHttpInvariants>[0]) => checkHttpInvariants(http).find((c) => c.id === 'invariant/http-accept')!
  it('wants application/json and text/event-stream on a POST and text/event-stream on a GET (both MUSTs)', () => {
    expect(accept([request('POST', 'application/json, text/event-stream'), request('GET', 'text/event-stream'), request('DELETE')]).status).toBe('pass')
    const post = accept([request('POST', 'application/json')])
    expect(post).toMatchObject({ status: 'fail', spec: { keyword: 'MUST', quote: 'The client MUST include an Accept header, listing both application/json and text/event-stream as supported content types.' } })
    expect(post.message).toMatch(/without text\/event-stream/)
    expect(accept([request('GET')])).toMatchObject({ status: 'fail', spec: { quote: 'The client MUST include an Accept header, listing text/event-stream as a supported content type.' } })
    expect(accept([{ method: 'POST', path: '/mcp/messages', status: 202 }]).status).toBe('skip')
  })
})

describe('a driven client with a fault on the wire fails the check that names its rule', () => {
  const run = async (fault: string, scenario: string, transport: 'stdio' | 'http') => {
    const result = await runScenario(scenarios.get(scenario)!, transport, driverAdapter(`node ${FAULTY} ${fault}`.trim()), { updateSnapshots: false })
    return (id: string) => result.checks.find((c) => c.id === id)!
  }

  it.each([
    { fault: 'jsonrpc-1', transport: 'stdio', check: 'invariant/jsonrpc', message: /tools\/call carried jsonrpc "1.0"/ },
    { fault: 'null-id', transport: 'stdio', check: 'invariant/jsonrpc', message: /request tools\/call carried id null/ },
    { fault: 'dup-id', transport: 'stdio', check: 'invariant/jsonrpc', message: /reused id 1/ },
    { fault: 'dup-id', transport: 'http', check: 'invariant/jsonrpc', message: /reused id 1/ },
    { fault: 'notification-with-id', transport: 'stdio', check: 'invariant/jsonrpc', message: /notifications\/initialized carried id 77/ },
    { fault: 'no-accept', transport: 'http', check: 'invariant/http-accept', message: /carried Accept "\*\/\*", without application\/json and text\/event-stream/ },
  ] as const)('$fault [$transport]: $check fails', async ({ fault, transport, check, message }) => {
    const clean = await run('', 'clean-discovery', transport)
    expect(clean(check).status).toBe('pass')
    const faulty = await run(fault, 'clean-discovery', transport)
    expect(faulty(check).status).toBe('fail')
    expect(faulty(check).message).toMatch(message)
    if (fault === 'null-id') expect(faulty('invariant/cancellation').status).not.toBe('fail')
  })

  it('pipeline-list [stdio]: a request before the initialize answer is a warning that says so', async () => {
    const handshake = (await run('pipeline-list', 'clean-discovery', 'stdio'))('invariant/handshake')
    expect(handshake).toMatchObject({ status: 'warn', message: 'tools/list was sent before the server had answered initialize', spec: { keyword: 'SHOULD NOT' } })
  })

  it('secret-canary plants only what the plugin rule calls secret-shaped (CANARY_PLAIN aside, inherited on purpose), well-known names included', () => {
    const { hostEnv } = scenarios.get('secret-canary')!.scenario
    const planted = Object.entries(hostEnv).filter(([name]) => name !== 'CANARY_PLAIN')
    expect(planted.filter(([name, value]) => !isSecretName(name) && !isSecretValue(value))).toEqual([])
    expect(Object.keys(hostEnv)).toEqual(expect.arrayContaining(['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY']))
  })

  it('well-known-secrets [stdio]: GITHUB_TOKEN and the like passed on by name are caught, as the bridge rule they break (information for a client)', async () => {
    const clean = await run('', 'secret-canary', 'stdio')
    expect(clean('expect/call-1').status).toBe('pass')
    const call = (await run('well-known-secrets', 'secret-canary', 'stdio'))('expect/call-1')
    expect(call.status).toBe('skip')
    expect(call.message).toMatch(/^Information \(no requirement for clients\): .*GITHUB_TOKEN/)
    expect(call.spec?.ref).toMatch(/BRIDGE/)
  })
})
