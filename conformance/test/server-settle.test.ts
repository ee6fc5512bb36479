/**
 * Pure tests of how one fault is reported once: "Not testable" skips that name the check carrying
 * the failure (and what they become when no check does), and verdicts that must not pass on nothing.
 */
import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../src/model.ts'
import { judge } from '../src/server/check.ts'
import { judgeEnvelope, judgeServerNotifications, judgeServerRequests } from '../src/server/evaluate/envelope.ts'
import { judgeGetPrompt } from '../src/server/evaluate/features.ts'
import { judgeCancelUnknown, judgePing } from '../src/server/evaluate/lifecycle.ts'
import { judgeList, type ListObservation } from '../src/server/evaluate/lists.ts'
import { judgeNotifications } from '../src/server/evaluate/notifications.ts'
import { judgeProjection } from '../src/server/evaluate/projection.ts'
import { CHECKS } from '../src/server/registry/index.ts'
import { NAMES_UNIQUE, TOOLS_LIST } from '../src/server/registry/tools.ts'
import { CheckLog } from '../src/server/settle.ts'
import { classify } from '../src/server/wire/jsonrpc.ts'
import { Ledger } from '../src/server/wire/ledger.ts'
import type { RpcOutcome } from '../src/server/wire/types.ts'

const V = '2025-11-25'
const settle = (...checks: CheckResult[]) => {
  const log = new CheckLog((c) => c)
  for (const check of checks) log.add(check)
  return log.finish()
}

describe('"Not testable" names the check that carries the failure', () => {
  const names = judge(NAMES_UNIQUE, V)
  const list = judge(TOOLS_LIST, V)

  it('is a skip when that check fails in the same run, also when it is reported later', () => {
    const dependent = names.notTestable('tools/list', 'there is no tool list to judge')
    const [first, second] = settle(dependent, list.breach('page 1 got no response within 5 ms', {}, 'reply'))
    expect(first).toMatchObject({ id: 'tools/names-unique', status: 'skip', message: 'Not testable: there is no tool list to judge; tools/list reports the failure' })
    expect(second?.status).toBe('fail')
  })

  it('when no check carries the failure, reports it itself, never above its own keyword (a SHOULD warns)', () => {
    const [alone] = settle(names.notTestable('tools/list', 'there is no tool list to judge'))
    expect(alone).toMatchObject({ status: 'warn', message: 'Not testable: there is no tool list to judge', spec: { keyword: 'SHOULD' } })
    const [passing, dependent] = settle(list.pass('1 tool on 1 page'), names.notTestable('tools/list', 'there is no tool list to judge'))
    expect(passing?.status).toBe('pass')
    expect(dependent?.status).toBe('warn')
    expect(list.notTestable(undefined, 'nothing to read').status).toBe('fail')
  })

  it('every check a run reports is in its order, each once, with the final verdict passed on', () => {
    const seen: CheckResult[] = []
    const log = new CheckLog((c) => c, (c) => seen.push(c))
    log.add(names.notTestable('tools/list', 'x'))
    log.add(list.breach('broken'))
    const final = log.finish()
    expect(final.map((c) => c.id)).toEqual(['tools/names-unique', 'tools/list'])
    expect(seen.map((c) => `${c.id} ${c.status}`).sort()).toEqual(['tools/list fail', 'tools/names-unique skip'])
  })

  it('a server that cannot answer ping has not "stopped answering" after a cancellation', () => {
    const error: RpcOutcome = { kind: 'error', error: { code: -32601, message: 'Method not found' }, wire: [] }
    const ping = judgePing(error, V)
    expect(ping.status).toBe('fail')
    const cancel = judgeCancelUnknown({ ok: true, wire: [] }, error, V, ping.status)
    expect(settle(ping, cancel)[1]).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Not testable: .*; lifecycle\/ping reports the failure$/) })
    // With a working ping, the same error after the cancellation is the cancellation's fault.
    expect(judgeCancelUnknown({ ok: true, wire: [] }, error, V, 'pass').status).toBe('warn')
  })

  it('a response with both a result and an error is the envelope check’s to report; the request’s own check is not testable', () => {
    const both: RpcOutcome = { kind: 'malformed', reason: 'carries both a result and an error', envelope: 'jsonrpc/result-or-error', wire: [] }
    const obs: ListObservation = { kind: 'tools', pages: [both], items: [], stop: 'failed', cursors: [], pageCap: 100 }
    const [listed, pagination] = judgeList(obs, V)
    expect(listed?.message).toBe('Not testable: the answer to tools/list (page 1) carries both a result and an error; jsonrpc/result-or-error reports the failure')
    expect(pagination?.message).toMatch(/jsonrpc\/result-or-error reports the failure$/)
  })
})

describe('what the audit found misreported', () => {
  it('a repeated cursor warns under the pagination guideline; a long list stopped at the cap is a skip that says what was judged', () => {
    const page = (nextCursor: string): RpcOutcome => ({ kind: 'result', result: { tools: [], nextCursor }, wire: [] })
    const loop: ListObservation = { kind: 'tools', pages: [page('a'), page('a')], items: [], stop: 'repeated-cursor', cursors: ['a', 'a'], pageCap: 100 }
    expect(judgeList(loop, V)[1]).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/^page 2 returned nextCursor "a", which page 1 had returned already: .*never ends$/),
      spec: { keyword: 'SHOULD', quote: 'Servers SHOULD: Provide stable cursors', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination#implementation-guidelines' },
    })
    const long: ListObservation = { kind: 'tools', pages: Array.from({ length: 3 }, (_, i) => page(`c${i}`)), items: [{}, {}, {}], stop: 'page-cap', cursors: ['c0', 'c1', 'c2'], pageCap: 3 }
    expect(judgeList(long, V)[1]).toMatchObject({ status: 'skip', message: 'the kit stopped following nextCursor after 3 pages (its own cap; the spec sets no page limit): 3 tools on 3 pages, every cursor distinct, judged; the rest not seen' })
  })

  it('prompts/get refused without "arguments" for a prompt that needs none breaks the declared capability, not a client-side schema, and that sentence states no keyword: information', () => {
    const refused: RpcOutcome = { kind: 'error', error: { code: -32602, message: 'arguments required' }, wire: [] }
    expect(judgeGetPrompt('summary', refused, undefined, V, [], false)).toMatchObject({
      status: 'skip',
      message: expect.stringMatching(/^Information .*the server declared prompts/),
      spec: { keyword: 'NONE', quote: 'Client and server capabilities establish which optional protocol features will be available during the session.' },
    })
  })

  it('the bridge’s checks cite its own rule (keyword BRIDGE) and warn at most', () => {
    for (const def of CHECKS.filter((d) => d.scope === 'bridge')) expect(def.rules.map((r) => r.keyword), def.id).toEqual(def.rules.map(() => 'BRIDGE'))
    const tool = { name: 'a', inputSchema: { type: 'object' } }
    expect(judgeProjection('srv', [tool, tool], V)).toMatchObject({ status: 'warn', spec: { keyword: 'BRIDGE' } })
  })

  it('several findings of one rule read "(and N more)"', () => {
    const ledger = new Ledger()
    for (const id of [7, 8, 9]) ledger.received({ jsonrpc: '2.0', id, result: {} })
    expect(judgeEnvelope([ledger], V).find((c) => c.id === 'jsonrpc/response-ids')?.message).toBe('response id 7 matches no request the kit sent (and 2 more)')
  })

  it('no server request or notification is nothing to judge, never a pass', () => {
    const silent = new Ledger()
    expect(judgeServerRequests([silent], V).map((c) => [c.id, c.status, c.message])).toEqual([
      ['lifecycle/server-requests', 'skip', 'nothing to judge: the server sent no requests'],
      ['lifecycle/requests-before-initialized', 'skip', 'nothing to judge: the server sent no requests'],
    ])
    expect(judgeServerNotifications([silent], { tools: {} }, V)).toMatchObject({ status: 'skip', message: 'nothing to judge: the server sent no notifications' })
  })

  it('a wrong "jsonrpc" value is read as what the message is, and reported by jsonrpc/version alone', () => {
    const message = { jsonrpc: '1.0', id: 3, result: {} }
    expect(classify(message).kind).toBe('response')
    const ledger = new Ledger()
    ledger.sent({ jsonrpc: '2.0', id: 3, method: 'ping' })
    ledger.received(message)
    const checks = judgeEnvelope([ledger], V)
    expect(checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['jsonrpc/version'])
    expect(checks[0]).toMatchObject({ message: 'response id 3 (to ping) has "jsonrpc": "1.0", not "jsonrpc": "2.0"', spec: { quote: 'jsonrpc: A String specifying the version of the JSON-RPC protocol. MUST be exactly "2.0".' } })
  })

  it('progress that goes down fails; progress that goes up passes', () => {
    const ledger = (values: number[]) => {
      const l = new Ledger()
      l.sent({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 't' } } })
      for (const progress of values) l.received({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress } })
      return l
    }
    const progressOf = (values: number[]) => judgeNotifications([ledger(values)], V).find((c) => c.id === 'notifications/progress')
    expect(progressOf([1, 2, 3])?.status).toBe('pass')
    expect(progressOf([5, 2])).toMatchObject({ status: 'fail', message: 'progress for token "t" went from 5 to 2; each notification must increase it', spec: { keyword: 'MUST', quote: 'The progress value MUST increase with each notification, even if the total is unknown.' } })
    expect(progressOf([2, 2])?.status).toBe('fail')
  })
})
