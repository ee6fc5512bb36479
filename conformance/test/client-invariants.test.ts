import { describe, expect, it } from 'vitest'
import type { WireEntry } from '@mcp-bridge/fixtures-server'
import { publicToolName } from '@mcp-bridge/plugin'
import { checkHttpInvariants } from '../src/client/http-invariants.ts'
import { checkCancellations } from '../src/client/cancellation.ts'
import { checkInvariants } from '../src/client/invariants.ts'
import { checkPings } from '../src/client/ping.ts'
import { checkShutdown } from '../src/client/processes.ts'

const recv = (msg: object): WireEntry => ({ dir: 'recv', msg: { jsonrpc: '2.0', ...msg } as WireEntry['msg'] })
const send = (msg: object): WireEntry => ({ dir: 'send', msg: { jsonrpc: '2.0', ...msg } as WireEntry['msg'] })
const tool = (rawName: string) => ({ name: publicToolName('s', rawName), rawName, description: '', parameters: {} })

describe('no pass over zero subjects', () => {
  it('skips every invariant, saying why, when the client never exposed a tool, sent nothing and started nothing', () => {
    const checks = checkInvariants({ snapshots: [[]], wire: [], afterDispose: [], orphans: [], processes: 0, noProcesses: 'over HTTP the client starts no server process' })
    expect(checks.map((c) => c.status)).toEqual(checks.map(() => 'skip'))
    expect(checks.every((c) => c.message.startsWith('nothing to judge: '))).toBe(true)
    expect(checks.find((c) => c.id === 'invariant/no-orphans')!.message).toBe('nothing to judge: over HTTP the client starts no server process')
  })

  it('skips the HTTP rules without a session, and passes them with one', () => {
    expect(checkHttpInvariants([]).map((c) => c.status)).toEqual(['skip', 'skip', 'skip', 'skip'])
    const used = [
      { method: 'POST', path: '/mcp', status: 200, newSession: 's1', accept: 'application/json, text/event-stream' },
      { method: 'POST', path: '/mcp', rpc: 'notifications/initialized', status: 202, session: 's1', accept: 'application/json, text/event-stream' },
      { method: 'DELETE', path: '/mcp', status: 200, session: 's1' },
    ]
    expect(checkHttpInvariants(used).map((c) => c.status)).toEqual(['pass', 'pass', 'skip', 'pass'])
  })

  it('judges what there is: a failure is never hidden by the subject count', () => {
    const wire = [recv({ id: 1, method: 'tools/call', params: { name: publicToolName('s', 'x') } })]
    const checks = checkInvariants({ snapshots: [], wire, afterDispose: [], orphans: [4242], processes: 1 })
    expect(checks.find((c) => c.id === 'invariant/raw-names-on-wire')!.status).toBe('fail')
    expect(checks.find((c) => c.id === 'invariant/handshake')!.status).toBe('fail')
    expect(checks.find((c) => c.id === 'invariant/no-orphans')!.status).toBe('fail')
  })
})

describe('whole generations', () => {
  const served = [
    recv({ id: 1, method: 'tools/list' }),
    send({ id: 1, result: { tools: [{ name: 'keep' }, { name: 'fresh' }, { name: 'taken' }] } }),
  ]

  it('fails a list a half-applied batch left short, although the missing tool was never exposed', () => {
    const checks = checkInvariants({ snapshots: [[tool('keep'), tool('fresh')]], wire: served, afterDispose: [], orphans: [] })
    expect(checks.find((c) => c.id === 'invariant/no-partial-generation')).toMatchObject({ status: 'fail', message: 'exposed [fresh, keep], which is no whole served generation' })
  })

  it('accepts the generation less the tools the scenario names as quarantined', () => {
    const checks = checkInvariants({ snapshots: [[tool('keep'), tool('fresh')]], wire: served, afterDispose: [], orphans: [], quarantined: ['taken'] })
    expect(checks.find((c) => c.id === 'invariant/no-partial-generation')!.status).toBe('pass')
  })

  it('leaves the tools the client offers of its own out of the comparison, and only those', () => {
    const exposed = [[tool('keep'), tool('fresh'), tool('taken'), tool('list_resources')]]
    const judged = (ownTools?: string[]) => checkInvariants({ snapshots: exposed, wire: served, afterDispose: [], orphans: [], ownTools }).find((c) => c.id === 'invariant/no-partial-generation')!.status
    expect(judged(['list_resources'])).toBe('pass')
    expect(judged()).toBe('fail')
    expect(judged(['read_resource'])).toBe('fail')
  })
})

describe('shutdown order, from the server side', () => {
  const reported = (events: Array<'eof' | 'sigterm'>) => ({
    servers: [10],
    children: [],
    events: [{ event: 'start' as const, pid: 10, ppid: 1 }, ...events.map((event) => ({ event, pid: 10 }))],
  })

  it('passes the requests expected, in order, with the server gone', () => {
    expect(checkShutdown(['eof', 'sigterm'], reported(['eof', 'sigterm']), []).status).toBe('pass')
  })

  it('fails a signal before the EOF, a missing EOF, and a server still running', () => {
    expect(checkShutdown(['eof', 'sigterm'], reported(['sigterm', 'eof']), []).message).toBe('the server (pid 10) saw [sigterm, eof], expected [eof, sigterm]')
    expect(checkShutdown(['eof'], reported([]), []).status).toBe('fail')
    expect(checkShutdown(['eof'], reported(['eof']), [10]).message).toBe('the server (pid 10) is still running')
  })
})

describe('cancellation', () => {
  const initialize = recv({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })
  const cancel = (requestId: unknown) => recv({ method: 'notifications/cancelled', params: { requestId } })
  const status = (wire: WireEntry[]) => checkCancellations(wire)

  it('passes a cancellation of a request the client sent', () => {
    expect(status([initialize, recv({ id: 1, method: 'tools/call', params: { name: 'slow' } }), cancel(1)])).toMatchObject({ status: 'pass', message: '1 cancellations, each of a request the client sent' })
  })

  it('fails a cancellation of initialize, of a request never sent, and of a task-augmented request', () => {
    expect(status([initialize, cancel(0)])).toMatchObject({ status: 'fail', message: 'notifications/cancelled named request 0, the initialize request' })
    expect(status([initialize, cancel(7)])).toMatchObject({ status: 'fail', message: 'notifications/cancelled named request 7, which the client never sent' })
    const asTask = recv({ id: 2, method: 'tools/call', params: { name: 'research', task: { ttl: 1000 } } })
    expect(status([initialize, asTask, cancel(2)])).toMatchObject({ status: 'fail', message: expect.stringContaining('a task-augmented tools/call') })
  })

  it('judges a reused id by its latest request (a new HTTP session starts its ids again)', () => {
    expect(status([initialize, recv({ id: 1, method: 'tools/list' }), recv({ ...initialize.msg, id: 1 }), cancel(1)])).toMatchObject({ status: 'fail' })
    expect(status([recv({ ...initialize.msg, id: 1 }), recv({ id: 1, method: 'tools/call', params: { name: 'slow' } }), cancel(1)])).toMatchObject({ status: 'pass' })
  })

  it('skips a run without cancellations, and ignores what the server sent', () => {
    expect(status([initialize, send({ method: 'notifications/cancelled', params: { requestId: 0 } })])).toMatchObject({ status: 'skip' })
  })
})

describe('ping', () => {
  const ping = (id: number) => send({ id, method: 'ping' })
  const answer = (id: number, body: object) => recv({ id, ...body })

  it('gives no check where the server never pinged', () => {
    expect(checkPings([recv({ id: 0, method: 'initialize' })])).toEqual([])
  })

  it('passes an empty result, and fails an error, a non-empty result or no answer', () => {
    expect(checkPings([ping(1), answer(1, { result: {} })])).toMatchObject([{ status: 'pass', message: '1 pings, each answered' }])
    expect(checkPings([ping(1), answer(1, { error: { code: -32601, message: 'Method not found' } })])).toMatchObject([{ status: 'fail', message: 'ping 1 was answered with error -32601 (Method not found)' }])
    expect(checkPings([ping(1), answer(1, { result: { ok: true } })])).toMatchObject([{ status: 'fail' }])
    expect(checkPings([ping(1), ping(2), answer(2, { result: {} })])).toMatchObject([{ status: 'fail', message: 'ping 1 was never answered' }])
  })
})

describe('MCP-Protocol-Version header', () => {
  const open = { method: 'POST', path: '/mcp', rpc: 'initialize', status: 200, newSession: 's1' }
  const later = (protocolVersion?: string) => ({ method: 'POST', path: '/mcp', rpc: 'tools/list', status: 200, session: 's1', ...(protocolVersion ? { protocolVersion } : {}) })
  const header = (http: Parameters<typeof checkHttpInvariants>[0], negotiated: string[]) => checkHttpInvariants(http, { negotiated })[2]!

  it('holds every later request of a session to the negotiated version', () => {
    expect(header([open, later('2025-06-18')], ['2025-06-18'])).toMatchObject({ status: 'pass' })
    expect(header([open, later()], ['2025-11-25'])).toMatchObject({ status: 'fail', message: 'request 2 (POST tools/list) carried no MCP-Protocol-Version (negotiated 2025-11-25)' })
    expect(header([open, later('2025-11-25')], ['2025-06-18'])).toMatchObject({ status: 'warn', message: 'request 2 (POST tools/list) carried MCP-Protocol-Version 2025-11-25, not the negotiated 2025-06-18' })
  })

  it('does not hold a session on a revision before the header to it, nor judge a session never established', () => {
    expect(header([open, later()], ['2025-03-26'])).toMatchObject({ status: 'skip' })
    expect(header([{ ...open, newSession: undefined }, later()], [])).toMatchObject({ status: 'skip' })
  })
})
