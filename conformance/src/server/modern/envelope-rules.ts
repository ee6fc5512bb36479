/**
 * Pure: the JSON-RPC envelope of every message a modern server sends, as 2026-07-28 states it.
 * Judged from the run's ledger (../wire/ledger.ts) over every exchange of the modern run, as the
 * legacy envelope checks (../registry/messages.ts) are for an initialize-based one.
 */
import type { ModernCheckDef } from './types.ts'

const EVERY = 'every message the server sent on the modern run’s connection'

export const MODERN_JSONRPC_VERSION: ModernCheckDef = {
  id: 'modern/jsonrpc-version',
  title: 'every message carries "jsonrpc": "2.0"',
  how: `${EVERY}: each request, notification and response has "jsonrpc" exactly "2.0"`,
  rules: [{ topic: 'basic#messages', keyword: 'MUST', quote: 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.' }],
}

export const MODERN_ERROR_SHAPE: ModernCheckDef = {
  id: 'modern/error-shape',
  title: 'error responses carry an integer code and a message',
  how: `${EVERY}: each error object has an integer "code" and a string "message"`,
  rules: [
    { topic: 'basic#error-responses', keyword: 'MUST', quote: 'Error codes MUST be integers.' },
    { topic: 'basic#error-responses', keyword: 'MUST', quote: 'Error responses MUST include an error field with a code and message.', case: 'message' },
  ],
}

export const MODERN_RESULT_OR_ERROR: ModernCheckDef = {
  id: 'modern/result-or-error',
  title: 'every response carries either a result or an error, never both',
  how: `${EVERY}: a response with neither a result nor an error, or both, is not read as an answer`,
  rules: [
    { topic: 'basic#result-responses', keyword: 'MUST', quote: 'Result responses MUST include a result field.' },
    { topic: 'jsonrpc#response-object', keyword: 'MUST NOT', quote: 'Either the result member or error member MUST be included, but both members MUST NOT be included.', case: 'both' },
  ],
}

export const MODERN_RESULT_IDS: ModernCheckDef = {
  id: 'modern/result-ids',
  title: 'every result answers a request the client sent, once',
  how: `${EVERY}: a result response's id is one the kit used for a request, answered only once (an error response's id is modern/error-id's)`,
  rules: [{ topic: 'basic#result-responses', keyword: 'MUST', quote: 'Result responses MUST include the same ID as the request they correspond to.' }],
}

export const MODERN_NOTIFICATION_REPLY: ModernCheckDef = {
  id: 'modern/no-response-to-notifications',
  title: 'notifications get no response',
  how: 'notifications/cancelled naming a request the kit never sent (to be ignored, basic/patterns/cancellation): no response may follow it (over HTTP, none in the body of its POST)',
  rules: [{ topic: 'basic#notifications', keyword: 'MUST NOT', quote: 'The receiver MUST NOT send a response.' }],
}

export const MODERN_NOTIFICATION_IDS: ModernCheckDef = {
  id: 'modern/notification-ids',
  title: 'notifications the server sends carry no id',
  how: `${EVERY}: a message whose method is a notifications/ method carries no "id"`,
  rules: [{ topic: 'basic#notifications', keyword: 'MUST NOT', quote: 'Notifications MUST NOT include an ID.' }],
}

export const MODERN_NO_SERVER_REQUESTS: ModernCheckDef = {
  id: 'modern/no-server-requests',
  title: 'the server sends no JSON-RPC requests; it asks through input_required results',
  how: `${EVERY}: none is a request (a message with a method and an id); each one that is gets -32601, and its id is judged as a request's`,
  rules: [
    {
      topic: 'mrtr',
      keyword: 'MUST',
      quote: 'Servers MUST send server-to-client requests (such as roots/list, sampling/createMessage, or elicitation/create) using the MRTR pattern.',
    },
    { topic: 'stdio#receiving-messages', keyword: 'MUST NOT', quote: 'The server MUST NOT write JSON-RPC requests to stdout.', case: 'stdio' },
    { topic: 'streamable-http#receiving-messages', keyword: 'MUST NOT', quote: 'The server MUST NOT send independent JSON-RPC requests on this stream.', case: 'http' },
    {
      topic: 'basic#requests',
      keyword: 'MUST NOT',
      quote: 'Requests MUST include a string or integer ID. Unlike base JSON-RPC, the ID MUST NOT be null. The request ID MUST NOT match the ID of any other request the sender has issued and not yet received a response for.',
      case: 'ids',
    },
  ],
}

export const MODERN_CANCEL_IGNORED: ModernCheckDef = {
  id: 'modern/cancel-ignored',
  title: 'invalid cancellations are ignored',
  how: 'three notifications/cancelled: naming a request the kit never sent, naming the answered server/discover, and one without a requestId; then server/discover again, which must still be answered (a response to any of the three is modern/no-response-to-notifications’)',
  rules: [
    { topic: 'cancellation#error-handling', keyword: 'SHOULD', quote: 'Invalid cancellation notifications SHOULD be ignored: Unknown request IDs' },
    { topic: 'cancellation#error-handling', keyword: 'SHOULD', quote: 'Invalid cancellation notifications SHOULD be ignored: Already completed requests', case: 'completed' },
    { topic: 'cancellation#error-handling', keyword: 'SHOULD', quote: 'Invalid cancellation notifications SHOULD be ignored: Malformed notifications', case: 'malformed' },
  ],
}

/** The sub-range -32020 to -32099 is the specification's; these are the codes it defines there. */
export const DEFINED_RESERVED_CODES = [-32020, -32021, -32022]
/** JSON-RPC 2.0's own codes, inside its reserved range -32768 to -32000. */
export const JSONRPC_CODES = [-32700, -32600, -32601, -32602, -32603]
/** Codes of earlier revisions that 2026-07-28 retires. */
export const RETIRED_CODES = [-32002, -32042]

export const MODERN_ERROR_CODES: ModernCheckDef = {
  id: 'modern/error-codes',
  title: 'no error code the revision retires or leaves undefined in its reserved range',
  how: `${EVERY}: no error code -32002 or -32042 (retired; -32002 answering resources/read is modern/resource-missing's), none in -32099 to -32020 but the defined -32020, -32021 and -32022, none in the legacy -32019 to -32000 (SHOULD NOT) and none elsewhere in JSON-RPC’s reserved -32768 to -32000 but its own five (SHOULD)`,
  rules: [
    { topic: 'basic#error-codes', keyword: 'MUST NOT', quote: 'Implementations MUST NOT emit any code from this sub-range that is not defined by this specification and MUST use defined codes only with their specified meanings.' },
    { topic: 'basic#error-codes', keyword: 'MUST NOT', quote: 'Implementations of this protocol version MUST NOT emit these codes: -32002 — resource not found (2025-11-25 and earlier; replaced by -32602).', case: '-32002' },
    { topic: 'basic#error-codes', keyword: 'MUST NOT', quote: 'Implementations of this protocol version MUST NOT emit these codes: -32042 — URL elicitation required (2025-11-25 only).', case: '-32042' },
    { topic: 'basic#error-codes', keyword: 'SHOULD NOT', quote: 'new implementations SHOULD NOT use codes from this sub-range at all', case: 'legacy' },
    {
      topic: 'basic#error-codes',
      keyword: 'SHOULD',
      quote: 'New error codes for purposes not defined by this specification SHOULD be allocated outside the JSON-RPC reserved range (-32768 to -32000)',
      case: 'outside',
    },
  ],
}

/** In the order the docs list them. */
export const ENVELOPE_CHECKS: readonly ModernCheckDef[] = [
  MODERN_JSONRPC_VERSION,
  MODERN_ERROR_SHAPE,
  MODERN_RESULT_OR_ERROR,
  MODERN_RESULT_IDS,
  MODERN_NOTIFICATION_REPLY,
  MODERN_NOTIFICATION_IDS,
  MODERN_NO_SERVER_REQUESTS,
  MODERN_ERROR_CODES,
  MODERN_CANCEL_IGNORED,
]
