/**
 * The JSON-RPC envelope of every message the server sends. These are judged from the wire's
 * ledger, so every exchange of every other check contributes to them.
 */
import { rule, type CheckDef } from './rules.ts'

const EVERY = 'every message the server sends on the main and the second connection'

export const ERROR_RESPONSES: CheckDef = {
  id: 'jsonrpc/error-responses',
  title: 'error responses carry an integer code and a message',
  scope: 'server',
  how: `${EVERY}: each error object has an integer "code" and a string "message"`,
  rules: [
    rule('2024-11-05', 'base#responses', 'MUST', 'Error codes MUST be integers.'),
    rule('2025-11-25', 'base#responses', 'MUST', 'Error responses MUST include an error field with a code and message.', 'message'),
    rule('2025-03-26', 'base#responses', 'MUST', 'Results MAY follow any JSON object structure, while errors MUST include an error code and message at minimum.', 'message', '2025-06-18'),
    rule('2024-11-05', 'schema', 'SCHEMA', 'JSONRPCError { error: { code: number; message: string; data?: unknown } }', 'message', '2024-11-05'),
  ],
}

export const RESULT_OR_ERROR: CheckDef = {
  id: 'jsonrpc/result-or-error',
  title: 'every response carries either a result or an error, never both',
  scope: 'server',
  how: EVERY,
  rules: [
    rule('2024-11-05', 'base#responses', 'MUST', 'Either a result or an error MUST be set. A response MUST NOT set both.', undefined, '2025-06-18'),
    // 2025-11-25 splits result and error responses into two types and leaves "not both" to JSON-RPC.
    rule('2025-11-25', 'jsonrpc#response-object', 'MUST', 'Either the result member or error member MUST be included, but both members MUST NOT be included.'),
  ],
}

export const RESPONSE_IDS: CheckDef = {
  id: 'jsonrpc/response-ids',
  title: 'every response answers a request the client sent, once',
  scope: 'server',
  how: `${EVERY}: a response id must be one the kit used for a request, answered only once; an id-less response counts too, as the kit sends no malformed request`,
  rules: [
    rule('2024-11-05', 'base#responses', 'MUST', 'Responses MUST include the same ID as the request they correspond to.', undefined, '2025-06-18'),
    rule('2025-11-25', 'base#responses', 'MUST', 'Result responses MUST include the same ID as the request they correspond to. Error responses MUST include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request).'),
  ],
}

export const NO_NOTIFICATION_RESPONSE: CheckDef = {
  id: 'jsonrpc/no-response-to-notifications',
  title: 'notifications get no response',
  scope: 'server',
  how: 'notifications/initialized and notifications/cancelled: no response message may follow them (over HTTP, none in the body of their POST); a response with the id the cancellation names counts too',
  rules: [
    rule('2024-11-05', 'jsonrpc#notification', 'MUST NOT', 'The Server MUST NOT reply to a Notification, including those that are within a batch request.', undefined, '2024-11-05'),
    rule('2025-03-26', 'base#notifications', 'MUST NOT', 'The receiver MUST NOT send a response.'),
  ],
}

export const REQUEST_IDS: CheckDef = {
  id: 'jsonrpc/request-ids',
  title: 'server requests carry string or integer ids, never reused',
  scope: 'server',
  how: 'every request the server sends on one connection',
  rules: [
    rule('2024-11-05', 'base#requests', 'MUST', 'Requests MUST include a string or integer ID. Unlike base JSON-RPC, the ID MUST NOT be null. The request ID MUST NOT have been previously used by the requestor within the same session.'),
  ],
}

/** In the order the docs list them. */
export const MESSAGE_CHECKS: CheckDef[] = [ERROR_RESPONSES, RESULT_OR_ERROR, RESPONSE_IDS, NO_NOTIFICATION_RESPONSE, REQUEST_IDS]
