import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LineReader, oversizedRequestMethod, oversizedResponseId } from '@mcp-bridge/process'

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

describe('LineReader, however the stream is cut', () => {
  /** Lines of 0-12 bytes (multi-byte characters and CRs included) against a limit of 8 bytes. */
  const line = fc.string({ unit: fc.constantFrom('a', 'é', '€', '\r', '"'), maxLength: 6 })
  const reference = (text: string) =>
    text.split('\n').slice(0, -1).map((l) => (Buffer.byteLength(l) > 8 ? { kind: 'oversized', bytes: Buffer.byteLength(l) } : { kind: 'line', text: l.endsWith('\r') ? l.slice(0, -1) : l }))

  it('gives the same lines whether a line arrives whole in one chunk or in pieces, at the limit and one byte over', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (lines, cuts) => {
        const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''))
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
        const reader = new LineReader(8)
        const events = [0, ...at].flatMap((from, i) => reader.push(bytes.subarray(from, [...at, bytes.length][i])))
        expect(events.map((e) => (e.kind === 'line' ? e : { kind: e.kind, bytes: e.bytes }))).toEqual(reference(bytes.toString('utf8')))
      }),
      { numRuns: 1_000 },
    )
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

describe('oversizedRequestMethod', () => {
  it('finds a top-level method at either end: the line is a request or notification of the server, not an answer', () => {
    expect(oversizedRequestMethod('{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"a', '')).toBe('sampling/createMessage')
    expect(oversizedRequestMethod('{"method":"notifications/message","params":{"data":"xx', 'xx"}}')).toBe('notifications/message')
    expect(oversizedRequestMethod('{"params":{"text":"zz', 'zz"},"method":"roots/list","jsonrpc":"2.0","id":"s-1"}')).toBe('roots/list')
    // Its id is read as any other: after the method too.
    expect(oversizedResponseId('{"jsonrpc":"2.0","method":"ping","id":9,"params":{"a', '')).toEqual([9])
  })

  it('never takes a method nested in a result, or inside a string', () => {
    expect(oversizedRequestMethod('{"jsonrpc":"2.0","id":2,"result":{"method":"x","content":[', 'x"}]}}')).toBeUndefined()
    expect(oversizedRequestMethod('{"result":{"content":[', 'x"}],"method":"x"},"jsonrpc":"2.0","id":2}')).toBeUndefined()
    expect(oversizedRequestMethod('{"result":{"a":"', 'b"},"jsonrpc":"2.0","id":2,"text":"\\"method\\":\\"x\\"}')).toBeUndefined()
    expect(oversizedRequestMethod('{"result":"', 'says \\"method\\":\\"x\\"}"}')).toBeUndefined()
  })
})
