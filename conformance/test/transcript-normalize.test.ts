import { describe, expect, it } from 'vitest'
import { formatWireTranscript } from '../src/transcript/format.ts'
import { normalizeText, normalizeValue, normalizeWire, type WireMessage } from '../src/transcript/normalize.ts'

describe('transcript normalisation', () => {
  it('replaces what varies between runs with stable tokens', () => {
    expect(normalizeText('session 3f2a1b4c-1d2e-4f5a-8b9c-0d1e2f3a4b5c at http://127.0.0.1:53712/mcp')).toBe('session <uuid> at http://127.0.0.1:<port>/mcp')
    expect(normalizeText('wrote /tmp/kit-fixture-AbC123/wire.jsonl at 2026-11-29T23:34:59.123Z')).toBe('wrote <tmp> at <time>')
    expect(normalizeText('retrying in 500ms, then 1000 ms')).toBe('retrying in <n>ms, then <n>ms')
  })

  it('sorts keys and tokenises durations', () => {
    expect(JSON.stringify(normalizeValue({ b: 1, a: { elapsedMs: 17, count: 3 } }))).toBe('{"a":{"count":3,"elapsedMs":"<duration>"},"b":1}')
  })

  it('renumbers JSON-RPC ids per requester, including cancellation targets', () => {
    const wire = normalizeWire([
      { dir: 'recv', msg: { jsonrpc: '2.0', id: 7, method: 'initialize' } },
      { dir: 'send', msg: { jsonrpc: '2.0', id: 7, result: {} } },
      { dir: 'send', msg: { jsonrpc: '2.0', id: 0, method: 'ping' } },
      { dir: 'recv', msg: { jsonrpc: '2.0', id: 0, result: {} } },
      { dir: 'recv', msg: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { _meta: { progressToken: 9 } } } },
      { dir: 'recv', msg: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } } },
    ])
    expect(wire.map(({ msg }) => (msg as { id?: string }).id)).toEqual(['c1', 'c1', 's1', 's1', 'c2', undefined])
    expect(wire[4]?.msg).toMatchObject({ params: { _meta: { progressToken: '<token>' } } })
    expect(wire[5]?.msg).toMatchObject({ params: { requestId: 'c2' } })
  })

  describe('runs of one notification (their length is the scheduler\'s)', () => {
    const call: WireMessage = { dir: 'recv', msg: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'chatty', _meta: { progressToken: 3 } } } }
    const cancel: WireMessage = { dir: 'recv', msg: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'ceiling' } } }
    const ticks = (n: number): WireMessage[] =>
      Array.from({ length: n }, (_, i) => ({ dir: 'send' as const, msg: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 3, progress: i + 1, total: 300 } } }))

    it('reads the same whether a loaded machine delivered 1, 6 or 7 progress ticks before the cancel', () => {
      const seven = formatWireTranscript([call, ...ticks(7), cancel])
      expect(formatWireTranscript([call, ...ticks(6), cancel])).toBe(seven)
      expect(formatWireTranscript([call, ...ticks(1), cancel])).toBe(seven)
      expect(seven.split('\n')[1]).toBe('server -> client n× {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":"<n>","progressToken":"<token>","total":300}}')
      // Order is still recorded: a tick after the cancel is a second run, not part of the first.
      expect(formatWireTranscript([call, ...ticks(3), cancel, ...ticks(1)])).not.toBe(seven)
    })

    it('collapses repeats of any identical notification, and marks a lone one only when it is a progress tick', () => {
      const changed: WireMessage = { dir: 'send', msg: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } }
      const list: WireMessage = { dir: 'recv', msg: { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} } }
      expect(formatWireTranscript([changed, changed, changed, list])).toBe(formatWireTranscript([changed, changed, list]))
      expect(formatWireTranscript([changed, changed, list]).split('\n')[0]).toBe('server -> client n× {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}')
      expect(formatWireTranscript([changed, list]).split('\n')[0]).toBe('server -> client {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}')
    })

    it('never merges requests, answers, notifications that differ, or the same notification in the other direction', () => {
      const initialized: WireMessage = { dir: 'recv', msg: { jsonrpc: '2.0', method: 'notifications/initialized' } }
      const echoed: WireMessage = { dir: 'send', msg: { jsonrpc: '2.0', method: 'notifications/initialized' } }
      const ping = (id: number): WireMessage => ({ dir: 'recv', msg: { jsonrpc: '2.0', id, method: 'ping' } })
      const other: WireMessage = { dir: 'send', msg: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9, progress: 1 } } }
      const lines = formatWireTranscript([initialized, echoed, ping(1), ping(1), ...ticks(2), other]).trim().split('\n')
      expect(lines).toHaveLength(6)
      expect(lines.filter((line) => line.includes('n×'))).toHaveLength(2)
    })
  })
})
