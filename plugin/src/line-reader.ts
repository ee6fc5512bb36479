/**
 * Splits a child's stdout into lines without ever holding more than `maxLineBytes` of one line.
 *
 * A longer line is not an error of the stream: it is counted as it passes and dropped, and only
 * its first and last few bytes are kept, so that the reader can tell whose answer it was (see
 * `oversizedResponseId`). Chunks are joined once per line, never once per chunk (the SDK's
 * ReadBuffer copies the whole buffer on every chunk: quadratic for a line of many chunks).
 */
export type LineEvent = { kind: 'line'; text: string } | { kind: 'oversized'; bytes: number; head: string; tail: string }

/** Bytes kept from each end of an oversized line: enough for a JSON-RPC envelope's id. */
const EDGE_BYTES = 512

export class LineReader {
  private parts: Buffer[] = []
  private bytes = 0
  private skipping = false
  private head = Buffer.alloc(0)
  private tail = Buffer.alloc(0)

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = []
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(10, start)
      const end = newline < 0 ? chunk.length : newline
      if (newline >= 0 && this.bytes === 0 && end - start <= this.maxLineBytes) {
        // A whole line within one chunk, the usual case: decoded where it is, nothing copied.
        events.push({ kind: 'line', text: withoutCR(chunk.toString('utf8', start, end)) })
      } else {
        this.take(chunk.subarray(start, end))
        if (newline < 0) break
        events.push(this.endLine())
      }
      start = newline + 1
    }
    return events
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return
    this.bytes += piece.length
    if (!this.skipping && this.bytes > this.maxLineBytes) {
      // From here on the line is only counted: its head is kept for the id, its body dropped.
      const held = Buffer.concat([...this.parts, piece])
      this.head = Buffer.from(held.subarray(0, EDGE_BYTES))
      this.tail = Buffer.from(held.subarray(-EDGE_BYTES))
      this.parts = []
      this.skipping = true
      return
    }
    if (this.skipping) {
      this.tail = piece.length >= EDGE_BYTES ? Buffer.from(piece.subarray(-EDGE_BYTES)) : Buffer.concat([this.tail, piece]).subarray(-EDGE_BYTES)
      return
    }
    // Copied: the stream may reuse the chunk's memory.
    this.parts.push(Buffer.from(piece))
  }

  private endLine(): LineEvent {
    const event: LineEvent = this.skipping
      ? { kind: 'oversized', bytes: this.bytes, head: this.head.toString('utf8'), tail: this.tail.toString('utf8') }
      : { kind: 'line', text: withoutCR(Buffer.concat(this.parts).toString('utf8')) }
    this.parts = []
    this.bytes = 0
    this.skipping = false
    this.head = this.tail = Buffer.alloc(0)
    return event
  }
}

function withoutCR(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`
const STRING = String.raw`"(?:[^"\\]|\\.)*"`
/** `{"jsonrpc":"2.0","id":7,...`: the id among the first members (after jsonrpc, or a request's method). */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*${STRING}\s*,\s*)*"id"\s*:\s*${ID}\s*,`)
/** `...,"id":7}`: the id as the last member of the top-level object (the SDK writes it last). */
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*\r?$`)

/**
 * `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage",...`: a method among the first members,
 * after nothing but jsonrpc and id (a response's "result" or "error" comes before any nested
 * "method" of its own).
 */
const HEAD_METHOD = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*(?:${STRING}|-?\d+(?:\.\d+)?|null)\s*,\s*)*"method"\s*:\s*(${STRING})`)
/** `...,"method":"x","jsonrpc":"2.0","id":7}`: a method among the last members, before nothing but jsonrpc and id. */
const TAIL_METHOD = new RegExp(String.raw`"method"\s*:\s*(${STRING})\s*(?:,\s*"(?:jsonrpc|id)"\s*:\s*(?:${STRING}|-?\d+(?:\.\d+)?|null)\s*)*\}\s*\r?$`)

/**
 * The method of an oversized line that is a request or a notification of the server's, when its
 * first or last bytes show one at the top level (as oversizedResponseId reads ids); undefined for
 * a response, or a line that shows none. Its id, if any, is the server's own: never the id of a
 * request of ours, whatever its value (JSON-RPC ids belong to their sender).
 */
export function oversizedRequestMethod(head: string, tail: string): string | undefined {
  for (const match of [HEAD_METHOD.exec(head), TAIL_METHOD.exec(tail)]) {
    if (!match) continue
    try {
      return String(JSON.parse(match[1]!))
    } catch {
      // A malformed escape: still a method member, named as it was written.
      return match[1]!.slice(1, -1)
    }
  }
  return undefined
}

/**
 * The JSON-RPC id of an oversized line, when it can be read without parsing the line: only where
 * it is unambiguous, as the object's first or last member (a nested `"id"` is followed by at least
 * two closing braces at the end, and cannot open the line).
 */
export function oversizedResponseId(head: string, tail: string): Array<string | number> {
  const ids: Array<string | number> = []
  for (const match of [TAIL_ID.exec(tail), HEAD_ID.exec(head)]) {
    if (!match) continue
    try {
      ids.push(JSON.parse(match[1]!) as string | number)
    } catch {
      // A malformed escape: not an id we could have sent.
    }
  }
  return ids
}
