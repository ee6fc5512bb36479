import type { ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_SSE_LINE_CHARS, SseParser, type SseEvent } from '../src/server/wire/sse.ts'
import { StdioWire } from '../src/server/wire/stdio.ts'

/**
 * Issue 34, "look for the next ones": the kit's own readers of a server's output, its stdio line
 * splitter and its event-stream parser, driven in-process with random framing (LF, CRLF, CR),
 * sizes (lines under, at and over the 16 MiB limit), encodings (multi-byte characters, bytes that
 * are no UTF-8) and chunk boundaries (empty chunks, a CRLF or a character cut in two). Whatever
 * arrives: what the reader holds of a line stays within its limit, nothing throws, an over-long
 * line is one clear verdict naming the limit, and the result is the same however it was cut.
 */

const MAX_LINE = 16 * 1024 * 1024

/** Where the chunks of `length` units are cut (repeated cuts are empty chunks). */
function cutPoints(cuts: number[], length: number): number[] {
  const at = cuts.map((c) => c % (length + 1)).sort((a, b) => a - b)
  return [0, ...at, length]
}

describe("the stdio wire's line splitter (StdioWire)", () => {
  /** A StdioWire over a child that is only its three pipes: its stdout is whatever the test emits. */
  function wireOver(): { wire: StdioWire; stdout: PassThrough; end: () => Promise<void> } {
    const child = Object.assign(new EventEmitter(), { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), pid: undefined })
    const wire = new (StdioWire as unknown as new (child: ChildProcess) => StdioWire)(child as unknown as ChildProcess)
    return {
      wire,
      stdout: child.stdout,
      end: async () => {
        child.stderr.end()
        child.emit('exit', 0, null)
        await wire.shutdown(0, 0)
      },
    }
  }

  /** What the wire made of the lines: everything a report shows of them. */
  const outcome = (wire: StdioWire) => ({ linesSeen: wire.linesSeen, noiseCount: wire.noiseCount, noise: wire.noise, invalidUtf8Count: wire.invalidUtf8Count, invalidUtf8: wire.invalidUtf8, strays: wire.strays })

  const small = fc.constantFrom(
    '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"héllo €"}}',
    '{"jsonrpc":"2.0","id":99,"result":{}}',
    '{"jsonrpc":"2.0","id":"s-1","method":"ping"}',
    '{"jsonrpc":"1.0","id":1}',
    'not json at all',
    '',
    '[1,2',
  )
  /** A line as the generator gives it: its text, or its size around the limit (built only when run, so a counterexample stays short). */
  type LineSpec = string | readonly number[] | { aroundLimit: number }
  const line: fc.Arbitrary<LineSpec> = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(small, fc.constantFrom('', '\r')).map(([text, cr]) => text + cr) },
    // No UTF-8: a lone continuation byte, a truncated sequence, an invalid lead byte.
    { weight: 2, arbitrary: fc.constantFrom([0x80], [0xe2, 0x82], [0x7b, 0xff, 0x7d]) },
    // At and around the limit: the size decides, never where the chunks were cut.
    { weight: 1, arbitrary: fc.integer({ min: -2, max: 2 }).map((aroundLimit) => ({ aroundLimit })) },
  )
  const bytesOf = (spec: LineSpec) => (typeof spec === 'string' ? Buffer.from(spec) : 'aroundLimit' in spec ? Buffer.alloc(MAX_LINE + spec.aroundLimit, 0x61) : Buffer.from(spec))
  const stream = fc.record({ lines: fc.array(line, { maxLength: 4 }), cuts: fc.array(fc.nat(), { maxLength: 10 }) })

  it('holds at most 16 MiB of a line, names an over-long line with its limit, and reads the same however stdout is cut', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async ({ lines: specs, cuts }) => {
        const lines = specs.map(bytesOf)
        const bytes = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]))
        const runs = [cutPoints([], bytes.length), cutPoints(cuts, bytes.length)]
        const seen = []
        for (const points of runs) {
          const { wire, stdout, end } = wireOver()
          for (let i = 1; i < points.length; i++) {
            stdout.emit('data', bytes.subarray(points[i - 1], points[i]))
            const state = wire as unknown as { parts: Buffer[]; partBytes: number }
            expect(state.parts.reduce((sum, part) => sum + part.length, 0)).toBeLessThanOrEqual(MAX_LINE)
          }
          seen.push(outcome(wire))
          await end()
        }
        expect(seen[1]).toEqual(seen[0])
        const tooLong = lines.filter((l) => l.length > MAX_LINE).length
        expect(seen[0]!.linesSeen).toBe(lines.length)
        expect(seen[0]!.noise.filter((n) => n.reason === 'line too long; discarded').map((n) => n.text)).toEqual(Array(Math.min(tooLong, 20)).fill(`[a line longer than ${MAX_LINE} bytes]`))
      }),
      { numRuns: 25 },
    )
  })
})

describe("the event-stream parser of the kit's HTTP wire (SseParser)", () => {
  const EOL = fc.constantFrom('\n', '\r', '\r\n')
  const smallField = fc.constantFrom('data: {"jsonrpc":"2.0","id":1,"result":{"t":"é€😀"}}', 'data:x', 'data', 'event: message', 'event: other', 'id: 7', 'id', 'retry: 250', 'retry: x', ': a comment', '', '', 'data: \ufffd')
  /** A field line, or its length around the limit in characters (built only when run, so a counterexample stays short). */
  type FieldSpec = string | { aroundLimit: number }
  const field: fc.Arbitrary<FieldSpec> = fc.oneof(
    { weight: 6, arbitrary: smallField },
    // At and around the limit, in characters.
    { weight: 1, arbitrary: fc.integer({ min: -2, max: 2 }).map((aroundLimit) => ({ aroundLimit })) },
  )
  const big = new Map<number, string>()
  const fieldText = (spec: FieldSpec) => {
    if (typeof spec === 'string') return spec
    if (!big.has(spec.aroundLimit)) big.set(spec.aroundLimit, `data: ${'a'.repeat(MAX_SSE_LINE_CHARS + spec.aroundLimit - 6)}`)
    return big.get(spec.aroundLimit)!
  }
  const stream = fc.record({ lines: fc.array(fc.tuple(field, EOL), { maxLength: 5 }), cuts: fc.array(fc.nat(), { maxLength: 10 }) })

  /** What the parser made of it: its events and what it kept besides. */
  function parse(chunks: string[]): { events: SseEvent[]; retryMs?: number; lastEventId?: string; overlongLines: number } {
    const parser = new SseParser()
    const events: SseEvent[] = []
    for (const chunk of chunks) {
      events.push(...parser.push(chunk))
      const state = parser as unknown as { partChars: number; parts: string[] }
      expect(state.parts.reduce((sum, part) => sum + part.length, 0)).toBeLessThanOrEqual(MAX_SSE_LINE_CHARS)
    }
    return { events, retryMs: parser.retryMs, lastEventId: parser.lastEventId, overlongLines: parser.overlongLines }
  }

  /** The stream's text: each line with its line end. */
  const textOf = (lines: Array<[FieldSpec, string]>) => lines.map(([spec, eol]) => fieldText(spec) + eol).join('')
  const linesIn = (lines: Array<[FieldSpec, string]>) => {
    const text = textOf(lines)
    return text.split(/\r\n|\r|\n/).slice(0, -1)
  }

  it('holds at most its line limit, counts each over-long line once, and parses the same text however it is cut', () => {
    fc.assert(
      fc.property(stream, ({ lines, cuts }) => {
        const text = textOf(lines)
        const points = cutPoints(cuts, text.length)
        const whole = parse([text])
        const cut = parse(points.slice(1).map((to, i) => text.slice(points[i], to)))
        expect(cut).toEqual(whole)
        expect(whole.overlongLines).toBe(linesIn(lines).filter((l) => l.length > MAX_SSE_LINE_CHARS).length)
      }),
      { numRuns: 30 },
    )
  })

  it('reads the same events from the bytes however they are cut, through a streaming decoder as the wire does', () => {
    // Small lines only: here the cuts fall inside characters and between CR and LF, where a
    // decoder hands on an empty string.
    const smallStream = fc.record({ lines: fc.array(fc.tuple(smallField, EOL), { maxLength: 12 }), cuts: fc.array(fc.nat(), { maxLength: 16 }) })
    fc.assert(
      fc.property(smallStream, ({ lines, cuts }) => {
        const bytes = Buffer.from(textOf(lines))
        const points = cutPoints(cuts, bytes.length)
        const decoder = new TextDecoder()
        const chunks = points.slice(1).map((to, i) => decoder.decode(bytes.subarray(points[i], to), { stream: true }))
        expect(parse(chunks)).toEqual(parse([bytes.toString('utf8')]))
      }),
      { numRuns: 1_000 },
    )
  })
})
