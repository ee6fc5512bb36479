/**
 * Pure: splits a child's output into lines without ever holding more than `maxLineBytes` of one
 * line. The one line rule of the bridge (its stdio servers) and of the conformance kit (its
 * drivers): a peer's stdout is untrusted, and one endless line must cost a bounded amount of
 * memory, never an exception or the process.
 *
 * A longer line is not an error of the stream: it is counted as it passes and dropped, and only
 * its first and last few bytes are kept, so that the reader can tell whose line it was.
 * `overflowing` says so while such a line is still arriving (one that never ends is noticed at
 * once, not at its end). Chunks are joined once per line, never once per chunk (joining on every
 * chunk is quadratic for a line of many chunks).
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

  constructor(readonly maxLineBytes: number) {}

  /** True while the line in progress is past `maxLineBytes` (it is being counted, not kept). */
  get overflowing(): boolean {
    return this.skipping
  }

  /** Takes `chunk` over: the caller must not change it afterwards (a stream's `data` chunks never are). */
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
    // Kept as it is, not copied: a stream's chunk is a buffer of its own that Node never reuses
    // (see push). Copying each piece of a long line doubled what a 100 KB answer allocated.
    this.parts.push(piece)
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
