/**
 * Pure: the 2026-07-28 sentences on the notifications a server may send unasked. The kit's
 * requests never carry io.modelcontextprotocol/logLevel or a progressToken, and the run's
 * connection never holds a subscriptions/listen request, so on it any notifications/message,
 * notifications/progress or notifications/cancelled from the server is one these sentences forbid.
 */
import type { ModernCheckDef } from './types.ts'

export const UNASKED_NOTIFICATIONS: ModernCheckDef = {
  id: 'modern/unasked-notifications',
  title: 'no log, progress or cancellation notification the client did not ask for',
  how: 'every message the server sent on the modern run’s connection (none of the kit’s requests sets a log level, a progress token or a subscription): none is notifications/message, notifications/progress or notifications/cancelled',
  rules: [
    { topic: 'logging#per-request-log-level', keyword: 'MUST NOT', quote: 'The server MUST NOT emit notifications/message for a request that does not include this field.' },
    {
      topic: 'logging#per-request-log-level',
      keyword: 'MUST NOT',
      quote:
        'When the field is present, the server MAY send notifications/message notifications at or above the requested level on the response stream of that request, before the final response. notifications/message is request-scoped: the server MUST NOT deliver it on a subscriptions/listen stream or on any stream other than the one carrying the response to the request that set the log level.',
      case: 'log-stream',
    },
    { topic: 'logging#capabilities', keyword: 'MUST', quote: 'Servers that emit log message notifications MUST declare the logging capability:', case: 'log-undeclared' },
    { topic: 'progress#behavior-requirements', keyword: 'MUST', quote: 'Progress notifications MUST only reference tokens that: Were provided in an active request', case: 'progress' },
    { topic: 'progress#behavior-requirements', keyword: 'MUST', quote: 'Progress notifications MUST only reference tokens that: Are associated with an in-progress operation', case: 'progress' },
    { topic: 'progress#implementation-notes', keyword: 'MUST', quote: 'Progress notifications MUST stop after completion', case: 'progress-after' },
    { topic: 'progress#progress-flow', keyword: 'MUST', quote: 'The progress value MUST increase with each notification, even if the total is unknown.', case: 'progress-order' },
    { topic: 'cancellation', keyword: 'MUST NOT', quote: 'Servers MUST NOT send notifications/cancelled for any other purpose.', case: 'cancelled' },
    { topic: 'cancellation#behavior-requirements', keyword: 'MUST', quote: 'Server-sent cancellation notifications MUST reference a subscriptions/listen request, to terminate that subscription stream', case: 'cancelled' },
    { topic: 'cancellation#behavior-requirements', keyword: 'MUST', quote: 'Cancellation notifications MUST only reference requests that: Were previously issued by the client', case: 'cancelled' },
    { topic: 'cancellation#behavior-requirements', keyword: 'MUST', quote: 'Cancellation notifications MUST only reference requests that: Are believed to still be in-progress', case: 'cancelled' },
  ],
  note: 'Judged on the connection the modern run’s requests use; a subscriptions/listen stream is read only up to its first message (modern/subscriptions-listen).',
}
