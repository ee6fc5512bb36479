/**
 * The JSON-RPC envelope of every message the server sends. These are judged from the wire's
 * ledger, so every exchange of every other check contributes to them.
 */
import { rule, type CheckDef } from './rules.ts'

const EVERY = 'every message the server sends on the main and the second connection'

export const JSONRPC_VERSION: CheckDef = {
  id: 'jsonrpc/version',
  title: 'every message carries "jsonrpc": "2.0"',
  scope: 'server',
  how: `${EVERY}, the initialize exchange included: each request, notification and response has "jsonrpc" exactly "2.0". A message with another value (or none) is still read as what it is, so this check alone reports it`,
  rules: [
    rule('2024-11-05', 'base#messages', 'MUST', 'All messages in MCP MUST follow the JSON-RPC 2.0 specification.', undefined, '2024-11-05'),
    rule('2025-03-26', 'base#messages', 'MUST', 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.'),
    rule('2024-11-05', 'jsonrpc#version', 'MUST', 'jsonrpc: A String specifying the version of the JSON-RPC protocol. MUST be exactly "2.0".', 'value'),
  ],
}

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
  how: `${EVERY}; a response with both or neither is not read as an answer, so the check that sent the request reports it as not testable`,
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
  how: `${EVERY}, the initialize exchange included: a response id must be one the kit used for a request, of the same type, answered only once; an id-less response counts too, as the kit sends no malformed request. A string id that spells the number of a pending request is still read as its answer (as the SDK's client does), so only this check reports it`,
  rules: [
    rule('2024-11-05', 'base#responses', 'MUST', 'Responses MUST include the same ID as the request they correspond to.', undefined, '2025-06-18'),
    // Two bullets, one under each response type: joined by "; " as the kit joins separate passages.
    rule(
      '2025-11-25',
      'base#responses',
      'MUST',
      'Result responses MUST include the same ID as the request they correspond to; Error responses MUST include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request).',
    ),
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

export const NOTIFICATION_IDS: CheckDef = {
  id: 'jsonrpc/notification-ids',
  title: 'notifications the server sends carry no id',
  how: `${EVERY}: a message whose method is a notifications/ method carries no "id" (one that does is read, and answered, as the request it then is)`,
  scope: 'server',
  rules: [rule('2024-11-05', 'base#notifications', 'MUST NOT', 'Notifications MUST NOT include an ID.')],
}

const META_HOW = `${EVERY}: the keys of every "_meta" object (of the params, the result, and every item in them such as tools and content blocks; not inside schemas, structuredContent or log and error data, whose "_meta" members are the server's own data); a prefix ends at the first "/"`

export const META_KEY_NAMES: CheckDef = {
  id: 'meta/key-names',
  title: '_meta keys follow the naming rules',
  scope: 'server',
  how: `${META_HOW}; each prefix label starts with a letter and ends with a letter or digit, with only letters, digits and hyphens between, and a name that is not empty begins and ends with a letter or digit`,
  rules: [
    rule(
      '2025-06-18',
      'base#meta',
      'MUST',
      'Prefix: If specified, MUST be a series of labels separated by dots (.), followed by a slash (/). Labels MUST start with a letter and end with a letter or digit; interior characters can be letters, digits, or hyphens (-); Name: Unless empty, MUST begin and end with an alphanumeric character ([a-z0-9A-Z]).',
    ),
  ],
}

export const META_REVERSE_DNS: CheckDef = {
  id: 'meta/reverse-dns',
  title: '_meta key prefixes use reverse DNS notation',
  scope: 'server',
  how: `${META_HOW}; a prefix of two or more labels whose last label is a common top-level domain (com, org, net, io, dev, ai, app, …) and whose first is not is forward DNS notation; a prefix naming no such domain is not judged`,
  rules: [rule('2025-11-25', 'base#meta', 'SHOULD', 'Implementations SHOULD use reverse DNS notation (e.g., com.example/ rather than example.com/).')],
}

/** In the order the docs list them. */
export const MESSAGE_CHECKS: CheckDef[] = [JSONRPC_VERSION, ERROR_RESPONSES, RESULT_OR_ERROR, RESPONSE_IDS, NO_NOTIFICATION_RESPONSE, REQUEST_IDS, NOTIFICATION_IDS, META_KEY_NAMES, META_REVERSE_DNS]
