/** Pure, incremental Server-Sent Events parser (the subset MCP uses: event, data, id, retry). */

export interface SseEvent {
  event: string
  data: string
  id?: string
}

export class SseParser {
  private buffer = ''
  private data: string[] = []
  private event = ''
  private id: string | undefined
  /** The last `retry` field seen: how long the server asks the client to wait before reconnecting. */
  retryMs: number | undefined

  /** The last event id the stream set (it persists across events, as the SSE standard says). */
  get lastEventId(): string | undefined {
    return this.id
  }

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    this.buffer += text
    const events: SseEvent[] = []
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer)
      if (!match) break
      // A lone trailing CR may be the first half of CRLF: wait for the next chunk.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break
      const line = this.buffer.slice(0, match.index)
      this.buffer = this.buffer.slice(match.index + match[0].length)
      const event = this.line(line)
      if (event) events.push(event)
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
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') this.data.push(value)
    else if (field === 'event') this.event = value
    else if (field === 'id') this.id = value
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value)
    return undefined
  }
}
