import { describe, expect, it } from 'vitest'
import type { WireEntry } from '@mcp-bridge/fixtures-server'
import { checkExpectations, type EndState } from '../src/client/expectations.ts'
import { ScenarioSchema } from '../src/client/scenario.ts'

// A `received` max that follows the burst the fixture sent: one more for each gap wider than
// `perGap.longerThan` between consecutive notifications, as the wire log timed them.
const NOTIFY = 'notifications/tools/list_changed'
const perGap = { of: NOTIFY, longerThan: 'listChanged.debounceMs * 0.5' }

const scenario = (bounds: Record<string, unknown>) =>
  ScenarioSchema.parse({
    id: 'x',
    title: 'x',
    spec: [{ ref: 'MCP §tools' }],
    server: {},
    client: { listChanged: { debounceMs: 500 } },
    expect: { received: { 'tools/list': bounds } },
  })

/** A burst sent at these times (ms), then `lists` tools/list requests received. */
const wire = (sentAt: Array<number | undefined>, lists: number): WireEntry[] => [
  ...sentAt.map((at) => ({ dir: 'send' as const, msg: { jsonrpc: '2.0' as const, method: NOTIFY }, ...(at === undefined ? {} : { at }) })),
  ...Array.from({ length: lists }, (_, i) => ({ dir: 'recv' as const, msg: { jsonrpc: '2.0' as const, id: i, method: 'tools/list' }, at: 10_000 + i })),
]

const end = (entries: WireEntry[]): EndState => ({ tools: [], logs: [], state: 'connected', wire: entries, attachments: 0 })

const judged = (bounds: Record<string, unknown>, entries: WireEntry[]) => {
  const check = checkExpectations(scenario(bounds), end(entries)).find((c) => c.id === 'expect/received/tools/list')!
  return `${check.status}: ${check.message}`
}

const burst = (gaps: number[]) => gaps.reduce<number[]>((times, gap) => [...times, times.at(-1)! + gap], [1000])

describe('expect.received with perGap', () => {
  it('keeps max when the burst was sent within the bound: a third list fails', () => {
    expect(judged({ min: 2, max: 2, perGap }, wire(burst(Array(9).fill(10)), 3))).toBe(
      'fail: received 3, expected at most 2 (max 2 + 0 gaps longer than listChanged.debounceMs * 0.5 = 250 ms between the 10 notifications/tools/list_changed sent (widest 10 ms))',
    )
  })

  it('allows one more list for each gap the fixture sent wider than the bound', () => {
    const stretched = burst([10, 10, 600, 10, 10, 10, 10, 10, 10])
    expect(judged({ min: 2, max: 2, perGap }, wire(stretched, 3))).toBe(
      'pass: received 3 (max 2 + 1 gaps longer than listChanged.debounceMs * 0.5 = 250 ms between the 10 notifications/tools/list_changed sent (widest 600 ms))',
    )
    expect(judged({ min: 2, max: 2, perGap }, wire(stretched, 4))).toMatch(/^fail: received 4, expected at most 3 /)
  })

  it('a gap exactly at the bound is not longer than it', () => {
    expect(judged({ max: 2, perGap }, wire(burst([250]), 3))).toMatch(/^fail: received 3, expected at most 2 \(max 2 \+ 0 gaps/)
  })

  it('allows nothing more when the wire log has no times (written before they were recorded)', () => {
    expect(judged({ max: 2, perGap }, wire([undefined, undefined], 3))).toBe(
      'fail: received 3, expected at most 2 (max 2: the wire log has no times for the 2 notifications/tools/list_changed sent)',
    )
  })

  it('counts only what the fixture sent, not what it received', () => {
    const received: WireEntry[] = [{ dir: 'recv', msg: { jsonrpc: '2.0', method: NOTIFY }, at: 0 }, { dir: 'recv', msg: { jsonrpc: '2.0', method: NOTIFY }, at: 5000 }]
    expect(judged({ max: 1, perGap }, [...received, ...wire([], 2)])).toMatch(/^fail: received 2, expected at most 1 \(max 1 \+ 0 gaps longer than .* between the 0 /)
  })

  it('is refused without max, and with a duration the client config does not set', () => {
    expect(() => scenario({ min: 2, perGap })).toThrow(/perGap raises max: give max too/)
    expect(() => scenario({ max: 2, perGap: { of: NOTIFY, longerThan: 'listChanged.maxWaitMs' } })).toThrow(/sets no number at listChanged\.maxWaitMs/)
  })
})
