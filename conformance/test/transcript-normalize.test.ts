import { describe, expect, it } from 'vitest'
import { normalizeText, normalizeValue, normalizeWire } from '../src/transcript/normalize.ts'

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
})
