/**
 * Server-Sent Events framing, as the plugin's HTTP transport and the kit's wire both read it: the
 * size of the event in progress, counted without holding it, and one line's field and value.
 */

/**
 * One line of an event: undefined for a comment (`: ...`); otherwise its field and value, the
 * value without the one space that may follow the colon (a line with no colon is a field alone).
 */
export function sseField(line: string): { field: string; value: string } | undefined {
  if (line.startsWith(':')) return undefined
  const colon = line.indexOf(':')
  if (colon < 0) return { field: line, value: '' }
  return { field: line.slice(0, colon), value: line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1)) }
}

/**
 * Bytes of the SSE event in progress: an empty line (two line ends in a row) ends an event. A line
 * ends at CRLF, LF or a bare CR (the SSE standard allows all three, and the SDK's parser reads
 * them so): counting LF alone took a stream framed with CRs for one endless event, held back
 * until it ended and abandoned once it outgrew the limit.
 */
export class EventSizeScanner {
  private eventBytes = 0
  private lineBytes = 0
  /** The last chunk ended in CR: an LF opening the next one belongs to it (CRLF). */
  private afterCr = false
  /** The largest size any event reached so far. */
  largestSeen = 0

  /** Feeds bytes; returns the largest size the current event reached within them, and whether an event ended. */
  push(chunk: Uint8Array): { largest: number; ended: boolean } {
    let largest = this.eventBytes
    let ended = false
    let start = 0
    if (this.afterCr && chunk.length > 0) {
      this.afterCr = false
      if (chunk[0] === 0x0a) start = 1
    }
    // The next LF and CR, each searched for again only once passed (-1: none left): linear in the chunk.
    let lf = -2
    let cr = -2
    for (;;) {
      if (lf !== -1 && lf < start) lf = chunk.indexOf(0x0a, start)
      if (cr !== -1 && cr < start) cr = chunk.indexOf(0x0d, start)
      const lineEnd = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr)
      const end = lineEnd < 0 ? chunk.length : lineEnd
      this.lineBytes += end - start
      this.eventBytes += end - start
      largest = Math.max(largest, this.eventBytes)
      this.largestSeen = Math.max(this.largestSeen, largest)
      if (lineEnd < 0) return { largest, ended }
      if (this.lineBytes === 0) {
        this.eventBytes = 0
        ended = true
      }
      this.lineBytes = 0
      start = lineEnd + 1
      if (chunk[lineEnd] === 0x0d) {
        if (start === chunk.length) this.afterCr = true
        else if (chunk[start] === 0x0a) start++
      }
    }
  }
}
