import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseWireLog } from '../src/wire.ts'

/**
 * Issue 34, "look for the next ones": the wire-log parser reads whatever file a user names
 * (`mcp-conformance judge --wire FILE`), perhaps while a fixture is still writing it. Driven with
 * random lines (entries, JSON that is no entry, no JSON, CRLF, multi-byte text) and cut at random
 * points: it gives entries of the shape its readers rely on, or one clear error naming the first
 * bad line, never a TypeError; and a log read half-written gives a prefix of what the whole gives.
 */

const entry = fc.constantFrom(
  { dir: 'recv', msg: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'é€😀' } } } },
  { dir: 'send', msg: { jsonrpc: '2.0', id: 1, result: {} } },
  { dir: 'recv', msg: {}, invalid: { reason: 'not JSON-RPC', raw: '[1,2]' } },
  { dir: 'http', http: { method: 'POST', path: '/mcp', status: 200, rpc: 'tools/list' } },
  { dir: 'http', http: { method: 'DELETE', path: '/mcp', status: 'dropped' } },
  { dir: 'proc', proc: { event: 'start', pid: 42, ppid: 1 } },
)
/** JSON that is no entry: what a wrong file, or a hand-edited one, holds. */
const notEntry = fc.constantFrom(null, 5, 'text', [], [{ dir: 'recv' }], {}, { dir: 'recv' }, { dir: 'send', msg: 5 }, { dir: 'recv', msg: null }, { dir: 'recv', msg: [] }, { dir: 'http' }, { dir: 'http', http: {} }, { dir: 'http', http: { method: 'GET', path: 1, status: 200 } }, { dir: 'http', http: { method: 'GET', path: '/', status: '200' } }, { dir: 'proc' }, { dir: 'proc', proc: { event: 'eof' } }, { dir: 'other', msg: {} })

type Line = { kind: 'entry'; text: string; value: unknown } | { kind: 'blank'; text: string } | { kind: 'bad'; text: string }
const line: fc.Arbitrary<Line> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(entry, fc.constantFrom('', '\r', ' ')).map(([value, end]): Line => ({ kind: 'entry', text: JSON.stringify(value) + end, value })) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\r').map((text): Line => ({ kind: 'blank', text })) },
  { weight: 1, arbitrary: notEntry.map((value): Line => ({ kind: 'bad', text: JSON.stringify(value) })) },
  { weight: 1, arbitrary: fc.constantFrom('{"dir":"recv",', 'not json', '\u00e9\ufffd', '{"dir":"send","msg":{}}{}').map((text): Line => ({ kind: 'bad', text })) },
)

const ERROR = /^line (\d+) is (?:not JSON|no wire-log entry \([^)]*\)): a wire log is what mcp-fixture --wire FILE writes, one JSON entry per line$/

/** The outcome, as data: entries, or the error's message (anything but an Error fails the property). */
function parsed(text: string): { entries: unknown[] } | { error: string } {
  try {
    return { entries: parseWireLog(text).entries }
  } catch (error) {
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).constructor).toBe(Error)
    return { error: (error as Error).message }
  }
}

describe('parseWireLog, driven with random lines and cuts', () => {
  it('gives the entries, or one bounded error naming the first bad line, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), (lines, lastEnded) => {
        const text = lines.map((l) => l.text).join('\n') + (lastEnded ? '\n' : '')
        // Only complete lines count: a last line without its newline is still being written.
        const complete = lastEnded ? lines : lines.slice(0, -1)
        const bad = complete.findIndex((l) => l.kind === 'bad')
        const outcome = parsed(text)
        if (bad < 0) {
          expect(outcome).toEqual({ entries: complete.flatMap((l) => (l.kind === 'entry' ? [l.value] : [])) })
          return
        }
        expect(outcome).toMatchObject({ error: expect.stringMatching(ERROR) })
        const { error } = outcome as { error: string }
        expect(Number(ERROR.exec(error)![1])).toBe(bad + 1)
        expect(error.length).toBeLessThan(200)
      }),
      { numRuns: 2_000 },
    )
  })

  it('reads a log cut anywhere, as when the fixture is still writing it, as a prefix of the whole', () => {
    const good = fc.array(line.filter((l) => l.kind !== 'bad'), { maxLength: 12 })
    fc.assert(
      fc.property(good, fc.nat(), (lines, cut) => {
        const text = lines.map((l) => `${l.text}\n`).join('')
        const whole = parseWireLog(text).entries
        const part = parseWireLog(text.slice(0, cut % (text.length + 1))).entries
        expect(part).toEqual(whole.slice(0, part.length))
      }),
      { numRuns: 2_000 },
    )
  })
})
