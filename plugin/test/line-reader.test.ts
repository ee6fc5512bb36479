import { describe, expect, it } from 'vitest'
import { LineReader, oversizedResponseId } from '../src/line-reader.ts'

describe('LineReader', () => {
  it('joins a line split across chunks and drops the CR of CRLF', () => {
    const reader = new LineReader(100)
    expect(reader.push(Buffer.from('{"a":'))).toEqual([])
    expect(reader.push(Buffer.from('1}\r\n{"b":2}\n{"c"'))).toEqual([
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
    ])
    expect(reader.push(Buffer.from(':3}\n'))).toEqual([{ kind: 'line', text: '{"c":3}' }])
  })

  it('counts a line above the limit to its end without holding it, keeping its two ends, and goes on', () => {
    const reader = new LineReader(1_000)
    const body = 'x'.repeat(5_000_000)
    const line = `{"jsonrpc":"2.0","id":7,"result":{"text":"${body}"}}`
    const events = []
    for (let at = 0; at < line.length; at += 65_536) events.push(...reader.push(Buffer.from(line.slice(at, at + 65_536))))
    events.push(...reader.push(Buffer.from('\n{"jsonrpc":"2.0","id":8,"result":{}}\n')))
    expect(events).toHaveLength(2)
    const [skipped, next] = events
    expect(skipped).toMatchObject({ kind: 'oversized', bytes: Buffer.byteLength(line) })
    const { head, tail } = skipped as Extract<typeof skipped, { kind: 'oversized' }>
    expect(head.startsWith('{"jsonrpc":"2.0","id":7,')).toBe(true)
    expect(tail.endsWith(`xxx"}}`)).toBe(true)
    expect(next).toEqual({ kind: 'line', text: '{"jsonrpc":"2.0","id":8,"result":{}}' })
  })
})

describe('oversizedResponseId', () => {
  it('reads the id where it is unambiguous: the first member, or the last member of the top-level object', () => {
    expect(oversizedResponseId('{"jsonrpc":"2.0","id":7,"result":{"a', '')).toEqual([7])
    expect(oversizedResponseId('{"id":"req-1","result":', '')).toEqual(['req-1'])
    // The SDK writes { result, jsonrpc, id }: the id comes last.
    expect(oversizedResponseId('{"result":{"content":[', 'xx"}]},"jsonrpc":"2.0","id":12}')).toEqual([12])
  })

  it('never takes a nested id or one inside a string', () => {
    expect(oversizedResponseId('{"result":{"id":3,', 'x"}],"item":{"id":5}}}')).toEqual([])
    expect(oversizedResponseId('{"result":"', 'text that says \\"id\\":4}"}')).toEqual([])
  })
})
