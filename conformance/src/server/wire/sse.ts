/** Pure, incremental Server-Sent Events parser (the subset MCP uses: event, data, id, retry). */

import { sseField } from '@mcp-bridge/process'

export interface SseEvent {
  event: string
  data: string
  id?: string
}

/** A line longer than this is discarded, as the stdio wire does (16 MiB). */
export const MAX_SSE_LINE_CHARS = 16 * 1024 * 1024

export class SseParser {
  /** The unfinished line, as the chunks it arrived in (joined once, when its line break comes). */
  private parts: string[] = []
  private partChars = 0
  /** The last chunk ended in CR: an LF opening the next one belongs to it (CRLF). */
  private skipLf = false
  /** Inside a line that grew past MAX_SSE_LINE_CHARS: dropped up to its line break. */
  private discarding = false
  private data: string[] = []
  private event = ''
  private id: string | undefined
  /** The last `retry` field seen: how long the server asks the client to wait before reconnecting. */
  retryMs: number | undefined
  /** Lines discarded for being longer than MAX_SSE_LINE_CHARS. */
  overlongLines = 0
  /** Characters examined for line breaks in all: each once, however the text is cut into chunks. */
  charsScanned = 0

  /** The last event id the stream set (it persists across events, as the SSE standard says). */
  get lastEventId(): string | undefined {
    return this.id
  }

  /** Feeds decoded text; returns the events completed by it. Only the new text is scanned. */
  push(text: string): SseEvent[] {
    const events: SseEvent[] = []
    // Nothing (a decoder's answer to half a character): a CR before it still pairs with the LF after it.
    if (text.length === 0) return events
    let i = 0
    if (this.skipLf) {
      this.skipLf = false
      if (text.charCodeAt(0) === 10) i = 1
    }
    let start = i
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c !== 10 && c !== 13) continue
      if (this.discarding) this.discarding = false
      else if (this.partChars + i - start > MAX_SSE_LINE_CHARS) {
        // The length decides, not where the chunks were cut: a line over the limit that arrives whole is discarded too.
        this.overlongLines++
        this.parts = []
        this.partChars = 0
      } else {
        const piece = text.slice(start, i)
        const line = this.parts.length ? this.parts.join('') + piece : piece
        this.parts = []
        this.partChars = 0
        const event = this.line(line)
        if (event) events.push(event)
      }
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++
        } else this.skipLf = true
      }
      start = i + 1
    }
    this.charsScanned += text.length
    if (start < text.length && !this.discarding) {
      const rest = text.slice(start)
      if (this.partChars + rest.length > MAX_SSE_LINE_CHARS) {
        this.overlongLines++
        this.parts = []
        this.partChars = 0
        this.discarding = true
      } else {
        this.parts.push(rest)
        this.partChars += rest.length
      }
    }
    return events
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = ''
        return undefined
      }
      const event: SseEvent = { event: this.event || 'message', data: this.data.join('\n') }
      if (this.id !== undefined) event.id = this.id
      this.data = []
      this.event = ''
      return event
    }
    const parsed = sseField(line)
    if (!parsed) return undefined
    const { field, value } = parsed
    if (field === 'data') this.data.push(value)
    else if (field === 'event') this.event = value
    else if (field === 'id') this.id = value
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value)
    return undefined
  }
}
