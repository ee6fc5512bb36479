import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BridgeError } from '../src/errors.ts'
import { redactSecrets } from '@mcp-bridge/process'
import { ENVELOPE_BYTES } from '../src/json-rpc-message.ts'
import { OVERSIZED_MARK } from '../src/request-failure.ts'
import { fetchWithLimits } from '../src/response-limits.ts'

/**
 * Issue 34, "look for the next ones": the bridge's readers of an HTTP server's answers
 * (response-limits.ts: a JSON body, an error body, an event stream), driven in-process with random
 * framing (LF, CRLF, bare CR: all three end a line in SSE), sizes (events under and over the
 * limit), multi-byte text and chunk boundaries, the stream ended or left open. Whatever the server
 * sends: what is held stays within the limit plus the chunk in hand, nothing throws but the one
 * INVALID_RESULT error naming limits.maxResultBytes, and the SDK is handed the same messages
 * however the bytes were cut, each as soon as its event has ended.
 */

const ID = 7
const REQUEST = JSON.stringify({ method: 'tools/call', params: { name: 'x' }, jsonrpc: '2.0', id: ID })

/** A body in `chunks`; left open after them (a pull that never settles) unless `end`. Counts what was read from it. */
function source(chunks: Uint8Array[], end: boolean) {
  let next = 0
  let drained!: () => void
  const state = { read: 0, drained: new Promise<void>((resolve) => (drained = resolve)) }
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) {
        state.read += chunks[next]!.byteLength
        return controller.enqueue(chunks[next++])
      }
      drained()
      if (end) return controller.close()
      return new Promise<void>(() => {})
    },
  })
  return { body, state }
}

function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b)
  return [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i]))
}

/** Ticks of the event loop for the pipeline to move what it has: no clock involved. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
}

const fetchOf = (maxBytes: number, response: () => Response, oversized: unknown[] = []) =>
  fetchWithLimits(async () => response(), { maxBytes, maxErrorChars: 500, redact: redactSecrets, onOversized: (answer) => oversized.push(answer) })

/** Reads a body to its end or its error, keeping the bytes; an open body is read for as long as it moves. */
async function drain(body: ReadableStream<Uint8Array>, open: Promise<void> | undefined) {
  const reader = body.getReader()
  const out = { chunks: [] as Uint8Array[], error: undefined as unknown, done: false }
  const reading = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return void (out.done = true)
        out.chunks.push(value)
      }
    } catch (error) {
      out.error = error
    }
  })()
  if (open) {
    // Until the source has been read to its end (or the body failed), then for as long as it moves.
    await Promise.race([open, reading])
    await settle()
  } else await reading
  const bytes = Buffer.concat(out.chunks)
  return { error: out.error, bytes, text: bytes.toString('utf8'), cancel: () => reader.cancel().catch(() => {}) }
}

describe('a JSON answer, however it is cut', () => {
  it('passes through whole within maxResultBytes plus the envelope, else fails once, naming the limit, within one chunk of it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2048 }), fc.integer({ min: -3, max: 3 }), fc.array(fc.nat(), { maxLength: 8 }), async (maxBytes, delta, cuts) => {
        const limit = maxBytes + ENVELOPE_BYTES
        const bytes = new Uint8Array(limit + delta).fill(0x20)
        const chunks = cut(bytes, cuts)
        const { body, state } = source(chunks, true)
        const response = await fetchOf(maxBytes, () => new Response(body, { headers: { 'content-type': 'application/json' } }))('http://x/mcp', { method: 'POST', body: REQUEST })
        const out = await drain(response.body!, undefined)
        if (bytes.length <= limit) {
          expect(out.error).toBeUndefined()
          expect(out.bytes.length).toBe(bytes.length)
          return
        }
        expect(out.error).toBeInstanceOf(BridgeError)
        expect((out.error as BridgeError).code).toBe('INVALID_RESULT')
        expect((out.error as Error).message).toContain(`limits.maxResultBytes (${maxBytes} bytes)`)
        // Abandoned at the chunk that crossed the limit: nothing further was read.
        expect(state.read - limit).toBeLessThanOrEqual(Math.max(...chunks.map((c) => c.byteLength)))
      }),
      { numRuns: 30 },
    )
  })
})

describe('an error answer, however it is cut', () => {
  it('is quoted within maxErrorChars with one notice, the same text however cut', async () => {
    const text = fc.array(fc.constantFrom('a', ' ', 'é', '€', '😀', '\n', '<'), { maxLength: 40 }).chain((units) => fc.integer({ min: 0, max: 1200 }).map((repeat) => units.join('').repeat(repeat)))
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 8 }), async (body, cuts) => {
        const quote = async (chunks: Uint8Array[]) => {
          const response = await fetchOf(1024 * 1024, () => new Response(source(chunks, true).body, { status: 500 }))('http://x/mcp', { method: 'POST', body: REQUEST })
          return response.text()
        }
        const bytes = Buffer.from(body)
        const whole = await quote([bytes])
        const pieces = await quote(cut(bytes, cuts))
        // The notice says how much was read before the body was abandoned: that much may differ.
        const shown = (quoted: string) => quoted.replace(/of more than \d+ characters\]$/, 'of more than N characters]')
        expect(shown(pieces)).toBe(shown(whole))
        expect(whole.length).toBeLessThanOrEqual(500 + 60)
      }),
      { numRuns: 100 },
    )
  })
})

describe('an event stream, however it is framed and cut', () => {
  type Ev = { pad: number; eol: string; comment: boolean; answer: boolean }
  /** Padding: small, or a share of the limit (many such events overrun it together, one alone may not). */
  const pad = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 64 }) }, { weight: 1, arbitrary: fc.constantFrom(0.3, 0.6, 1.01) })
  const ev = fc.record({ pad, comment: fc.boolean(), answer: fc.constant(false) })
  const stream = fc.record({
    events: fc.array(ev, { minLength: 1, maxLength: 5 }),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    answered: fc.boolean(),
    /** The last event is left unfinished (no empty line after it). */
    trailing: fc.boolean(),
    end: fc.boolean(),
    maxBytes: fc.integer({ min: 1, max: 2048 }),
    cuts: fc.array(fc.nat(), { maxLength: 8 }),
  })

  function message(index: number, size: number, answer: boolean): string {
    const text = 'é€😀x'.repeat(Math.ceil(size / 10)).slice(0, size)
    return answer ? JSON.stringify({ jsonrpc: '2.0', id: ID, result: { content: [{ type: 'text', text }] } }) : JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${index}:${text}` } })
  }

  /** The SSE text, and per event its message, its size as the limit counts it (its lines' bytes) and whether it ended. */
  function build(spec: { events: Array<Omit<Ev, 'eol'>>; eol: string; answered: boolean; trailing: boolean; maxBytes: number }) {
    const limit = spec.maxBytes + ENVELOPE_BYTES
    const events = spec.events.map((event, index) => {
      const answer = spec.answered && index === spec.events.length - 1
      const data = message(index, event.pad < 1 ? Math.round(event.pad * limit) : event.pad, answer)
      const lines = [...(event.comment ? [': keep-alive'] : []), 'event: message', `data: ${data}`]
      const ended = !(spec.trailing && index === spec.events.length - 1)
      return { data, ended, bytes: lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0), text: lines.map((line) => line + spec.eol).join('') + (ended ? spec.eol : '') }
    })
    return { limit, events, text: events.map((event) => event.text).join('') }
  }

  /** The messages the SDK can read from what it was handed: a JSON answer, or the events of a stream. */
  function messagesIn(type: string, text: string): string[] {
    if (type.startsWith('application/json')) return (JSON.parse(text) as unknown[]).map((m) => JSON.stringify(m))
    const out: string[] = []
    let data: string[] = []
    for (const line of text.split(/\r\n|\r|\n/).slice(0, -1)) {
      if (line === '') {
        if (data.length) out.push(data.join('\n'))
        data = []
      } else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5))
    }
    return out
  }

  it('hands on every ended event, the same however cut, and fails only for an event over the limit, naming it', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async (spec) => {
        const { limit, events, text } = build(spec)
        const bytes = Buffer.from(text)
        const chunks = cut(bytes, spec.cuts)
        const { body, state } = source(chunks, spec.end)
        const oversized: Array<{ id: unknown; error: { message: string; data: Record<string, boolean> } }> = []
        // The answer's headers may wait for the first event to end; an open stream that ends none answers nothing.
        let response: Response | undefined
        const responding = fetchOf(spec.maxBytes, () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }), oversized)('http://x/mcp', { method: 'POST', body: REQUEST }).then((r) => (response = r))
        if (spec.end) await responding
        else {
          await Promise.race([state.drained, responding])
          await settle()
        }
        const out = response ? await drain(response.body!, spec.end ? undefined : state.drained) : { error: undefined, bytes: Buffer.alloc(0), text: '', cancel: async () => {} }
        const type = response?.headers.get('content-type') ?? ''
        const over = events.findIndex((event) => event.bytes > limit)
        const ended = events.filter((event) => event.ended).map((event) => event.data)
        try {
          if (over < 0) {
            expect(out.error).toBeUndefined()
            expect(messagesIn(type, out.text)).toEqual(ended)
            expect(oversized).toEqual([])
          } else {
            expect(out.error).toBeInstanceOf(BridgeError)
            expect((out.error as Error).message).toContain(`limits.maxResultBytes (${spec.maxBytes} bytes)`)
            expect(oversized).toMatchObject([{ id: ID, error: { message: (out.error as Error).message, data: { [OVERSIZED_MARK]: true } } }])
            expect(messagesIn(type, out.text)).toEqual(ended.slice(0, over))
          }
          // Held: at most the event in progress (within the limit) and the chunk that brought it.
          expect(state.read - out.bytes.length).toBeLessThanOrEqual(limit + Math.max(...chunks.map((c) => c.byteLength)))
        } finally {
          await out.cancel()
        }
      }),
      { numRuns: 150 },
    )
  })
})
