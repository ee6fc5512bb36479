/** The timeline behind a scenario run's sequence diagram: what the runner records, then the pure order, normalisation and bounds. */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TimelineRecorder } from '../src/client/timeline.ts'
import type { TimelineEvent } from '../src/model.ts'
import { boundEvents, buildTranscript, stepLabel, type Observed } from '../src/transcript/timeline.ts'

const observed: Observed = [
  { at: 0, kind: 'step', step: 0, text: 'the client starts' },
  { at: 5, kind: 'wire', dir: 'recv', msg: { jsonrpc: '2.0', id: 41, method: 'initialize' } },
  { at: 6, kind: 'wire', dir: 'send', msg: { jsonrpc: '2.0', id: 41, result: { note: 'x'.repeat(700) } } },
  { at: 6, kind: 'step', step: 1, text: 'call echo', call: 1 },
  { at: 7, kind: 'wire', dir: 'recv', msg: { jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'echo' } } },
  { at: 9, kind: 'log', text: '[warn] connection lost' },
  { at: 9, kind: 'process', what: 'exit', text: 'server process ended (pid 1)' },
]

describe('TimelineRecorder', () => {
  it('reads the wire log as it grows, whole lines only, even when a write ends inside a character', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-timeline-'))
    try {
      const file = join(dir, 'wire.jsonl')
      const recorder = new TimelineRecorder(file)
      recorder.step(0, 'the client starts')
      const line = Buffer.from(`${JSON.stringify({ dir: 'recv', msg: { jsonrpc: '2.0', id: 1, method: 'café' } })}\n`)
      const split = line.indexOf(Buffer.from('é')) + 1 // between the two bytes of "é"
      appendFileSync(file, line.subarray(0, split))
      recorder.step(1, 'call x', { call: 1 })
      appendFileSync(file, Buffer.concat([line.subarray(split), Buffer.from('not json\n')]))
      recorder.step(2, 'end', { end: true })
      const seen = recorder.stop()
      expect(seen.map((item) => (item.kind === 'wire' ? (item.msg as { method: string }).method : item.kind === 'step' ? item.text : item.kind))).toEqual(['the client starts', 'call x', 'café', 'end'])
      expect(seen.every((item, i) => i === 0 || item.at >= seen[i - 1]!.at)).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('buildTranscript', () => {
  it('keeps the order the runner saw things in, with ids renumbered as in the text transcript', () => {
    const { events } = buildTranscript(observed, 'text', 'http')
    expect(events.map((e) => e.kind)).toEqual(['step', 'message', 'message', 'step', 'message', 'log', 'process'])
    expect(events.filter((e) => e.kind === 'message').map((e) => (e.message as { id: string }).id)).toEqual(['c1', 'c1', 'c2'])
  })

  it('over stdio, each initialize the fixture receives starts a server process', () => {
    const { events } = buildTranscript(observed, 'text', 'stdio')
    expect(events[1]).toEqual({ at: 5, kind: 'process', what: 'start', text: 'server process started' })
    expect(events[2]).toMatchObject({ kind: 'message', from: 'client', message: { method: 'initialize' } })
  })

  it('bounds what a server said: long strings in messages, long lines and many lines of text', () => {
    const { events, text } = buildTranscript(observed, `${'y'.repeat(2_500)}\n${'z\n'.repeat(3_000)}`, 'http')
    const result = events[2] as Extract<TimelineEvent, { kind: 'message' }>
    expect((result.message as { result: { note: string } }).result.note).toMatch(/^x{600}… \[100 more characters\]$/)
    const lines = text.split('\n')
    expect(lines[0]).toMatch(/^y{2000}… \[500 more characters\]$/)
    expect(lines).toHaveLength(2_001)
    expect(lines.at(-1)).toBe('… [1002 more lines]')
  })
})

describe('boundEvents', () => {
  it('keeps every step, the head and the tail, and marks the gap with what was left out', () => {
    const storm: TimelineEvent[] = [
      { at: 0, kind: 'step', step: 1, text: 'wait' },
      ...Array.from({ length: 20 }, (_, i): TimelineEvent => ({ at: i, kind: 'log', text: `line ${i}` })),
      { at: 30, kind: 'step', step: 2, text: 'end', end: true },
    ]
    const bounded = boundEvents(storm, 6)
    expect(bounded.map((e) => (e.kind === 'omitted' ? `(${e.count} omitted)` : 'text' in e ? e.text : e.kind))).toEqual([
      'wait',
      'line 0',
      'line 1',
      'line 2',
      'line 3',
      '(14 omitted)',
      'line 18',
      'line 19',
      'end',
    ])
    expect(boundEvents(storm, 20)).toBe(storm)
  })
})

describe('stepLabel', () => {
  it('says what the runner did in a few words', () => {
    expect(stepLabel({ call: { tool: 'slow', args: {}, route: 'none', abortAfterMs: 50 } })).toBe('call slow, abort after 50 ms')
    expect(stepLabel({ wait: { state: 'connected', received: 'tools/list', count: 2, timeoutMs: 10_000 } })).toBe('wait for state connected and 2× tools/list received')
    expect(stepLabel({ kill: true })).toBe('kill the server, as a crash would')
    expect(stepLabel({ expectTools: ['a', 'b'] })).toBe('expect tools [a, b]')
  })
})
