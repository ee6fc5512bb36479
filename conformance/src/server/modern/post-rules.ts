/** Pure: the 2026-07-28 sentences on the HTTP answer to each POST (Streamable HTTP, sending messages). */
import type { ModernCheckDef } from './types.ts'

export const MODERN_POSTS: ModernCheckDef = {
  id: 'modern/post-answers',
  title: 'each POST gets the answer its body calls for: a JSON or event-stream response, or 202 for a notification',
  how: 'over HTTP, every request the modern run POSTed on its own connection and answered with a 2xx status: its Content-Type is application/json or text/event-stream; every notification it POSTed (the cancellations of modern/cancel-ignored): 202 Accepted with no body, or an HTTP error status',
  rules: [
    {
      topic: 'streamable-http#sending-messages',
      keyword: 'MUST',
      quote: 'If the body is a JSON-RPC request, the server MUST return either Content-Type: application/json (a single JSON object) or Content-Type: text/event-stream (an SSE response stream).',
    },
    { topic: 'streamable-http#sending-messages', keyword: 'MUST', quote: 'If the server accepts it, the server MUST return HTTP status code 202 Accepted with no body.', case: 'accepted' },
    { topic: 'streamable-http#sending-messages', keyword: 'MUST', quote: 'If the server cannot accept it, it MUST return an HTTP error status code (e.g., 400 Bad Request).', case: 'refused' },
  ],
}
