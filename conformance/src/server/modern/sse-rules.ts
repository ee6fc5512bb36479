/** Pure: the 2026-07-28 sentences on an event stream that answers a POST (Streamable HTTP, receiving messages). */
import type { ModernCheckDef } from './types.ts'

export const MODERN_SSE_END: ModernCheckDef = {
  id: 'modern/sse-end',
  title: 'the final response ends its event stream',
  how: 'over HTTP, every request the modern run POSTed on its own connection and was answered on an event stream: after the response the kit reads on, for as long as its request timeout (requestTimeoutMs); a stream the server has not ended by then was not terminated by its final response',
  rules: [{ topic: 'streamable-http#receiving-messages', keyword: 'SHOULD', quote: 'The final JSON-RPC response SHOULD terminate the stream.' }],
}

export const MODERN_ACCEL_BUFFERING: ModernCheckDef = {
  id: 'modern/sse-accel-buffering',
  title: 'an event stream is sent with X-Accel-Buffering: no',
  how: 'over HTTP, every answer of the modern run’s connection whose Content-Type is text/event-stream carries the header X-Accel-Buffering with the value no (compared without regard to case)',
  rules: [{ topic: 'streamable-http#receiving-messages', keyword: 'SHOULD', quote: 'When initiating an SSE stream, servers SHOULD include the X-Accel-Buffering: no header in the HTTP response.' }],
}

export const MODERN_SSE_CHECKS: readonly ModernCheckDef[] = [MODERN_SSE_END, MODERN_ACCEL_BUFFERING]
