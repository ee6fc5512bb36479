import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LineReader, type LineEvent } from '../src/line-reader.ts'

/**
 * Issue 34, "look for the next ones": the one line reader of the bridge (its stdio servers) and
 * of the kit (its drivers), driven with random lines (multi-byte characters, CRs, bytes that are
 * no UTF-8, lines at, under and far over the limit) cut into random chunks, empty ones included.
 * Whatever arrives: the reader holds at most its limit of one line (plus the chunk being read),
 * throws nothing, and hands on the same events however the bytes were cut.
 */

/** Bytes kept from each end of an oversized line (line-reader.ts). */
const EDGE_BYTES = 512

const piece = fc.oneof(
  fc.constantFrom(...['a', 'é', '€', '😀', '\r', '"', '{'].map((s) => Buffer.from(s))),
  // Not UTF-8: a lone continuation byte, a truncated sequence, an invalid lead byte.
  fc.constantFrom(Buffer.from([0x80]), Buffer.from([0xe2, 0x82]), Buffer.from([0xff])),
  // A run: lines far over a small limit, and over the edges an oversized line keeps.
  fc.integer({ min: 1, max: 3 * EDGE_BYTES }).map((n) => Buffer.alloc(n, 0x61)),
)
const line = fc.array(piece, { maxLength: 6 }).map((parts) => Buffer.concat(parts))

/** A stream: lines, each ended by LF but perhaps the last, cut at random points (a cut may repeat: an empty chunk). */
const stream = fc.record({
  lines: fc.array(line, { maxLength: 8 }),
  unterminated: fc.option(line, { nil: undefined }),
  cuts: fc.array(fc.nat(), { maxLength: 12 }),
})

function bytesOf(lines: Buffer[], unterminated?: Buffer): Buffer {
  return Buffer.concat([...lines.flatMap((l) => [l, Buffer.from('\n')]), ...(unterminated ? [unterminated] : [])])
}

function chunks(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b)
  return [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i]))
}

/** What the reader holds of the line in progress (its private state, read here for the bound). */
function held(reader: LineReader): number {
  const state = reader as unknown as { parts: Buffer[]; head: Buffer; tail: Buffer }
  return state.parts.reduce((sum, part) => sum + part.length, 0) + state.head.length + state.tail.length
}

/** The events the line rule gives, line by line, from the whole bytes (no chunking). */
function reference(lines: Buffer[], limit: number): LineEvent[] {
  return lines.map((bytes) => {
    if (bytes.length <= limit) {
      const text = bytes.toString('utf8')
      return { kind: 'line', text: text.endsWith('\r') ? text.slice(0, -1) : text }
    }
    return { kind: 'oversized', bytes: bytes.length, head: bytes.subarray(0, EDGE_BYTES).toString('utf8'), tail: bytes.subarray(-EDGE_BYTES).toString('utf8') }
  })
}

describe('LineReader, driven with random framing, sizes, encodings and chunk boundaries', () => {
  it('holds at most its limit plus the chunk in hand, throws nothing, and gives the same events however the stream is cut', () => {
    // Limits at and above the edges an oversized line keeps: the bridge's limit is at least 1 MiB, the kit's 16 MiB.
    fc.assert(
      fc.property(stream, fc.integer({ min: EDGE_BYTES, max: 2 * EDGE_BYTES }), ({ lines, unterminated, cuts }, limit) => {
        const reader = new LineReader(limit)
        const events: LineEvent[] = []
        for (const chunk of chunks(bytesOf(lines, unterminated), cuts)) {
          events.push(...reader.push(chunk))
          // Between chunks nothing of the caller's is in hand: the line so far, or its two edges.
          expect(held(reader)).toBeLessThanOrEqual(Math.max(limit, 2 * EDGE_BYTES))
        }
        expect(events).toEqual(reference(lines, limit))
        // A line still arriving past the limit is known to be oversized before it ends.
        expect(reader.overflowing).toBe((unterminated?.length ?? 0) > limit)
      }),
      { numRuns: 300 },
    )
  })

  it('below the edge size, keeps the same lines and counts, and an oversized line its first bytes and its last', () => {
    // A limit under EDGE_BYTES (no configuration allows one) keeps of an oversized line's head what
    // had arrived when it overflowed: at least limit + 1 bytes of it, never more than EDGE_BYTES.
    fc.assert(
      fc.property(stream, fc.integer({ min: 1, max: 64 }), ({ lines, unterminated, cuts }, limit) => {
        const reader = new LineReader(limit)
        const events: LineEvent[] = []
        for (const chunk of chunks(bytesOf(lines, unterminated), cuts)) {
          expect(held(reader)).toBeLessThanOrEqual(2 * EDGE_BYTES)
          events.push(...reader.push(chunk))
        }
        const expected = reference(lines, limit)
        expect(events.map(({ kind }) => kind)).toEqual(expected.map(({ kind }) => kind))
        events.forEach((event, i) => {
          const want = expected[i]!
          if (event.kind === 'line' || want.kind === 'line') return expect(event).toEqual(want)
          expect(event.bytes).toBe(want.bytes)
          expect(event.tail).toBe(want.tail)
          const line = lines[i]!
          const kept = [...Array(Math.min(EDGE_BYTES, line.length) + 1).keys()].filter((n) => n > limit && line.subarray(0, n).toString('utf8') === event.head)
          expect(kept.length, `head ${JSON.stringify(event.head.slice(0, 40))} is no prefix of the line past the limit`).toBeGreaterThan(0)
        })
      }),
      { numRuns: 300 },
    )
  })
})
