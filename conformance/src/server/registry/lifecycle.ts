/** The lifecycle checks: initialize, negotiation, ping, cancellation, and what the server may use. */
import { REPLY, rule, type CheckDef } from './rules.ts'

/** Operation: a SHOULD until 2025-03-26, a MUST from 2025-06-18 (the same two bullets). */
const OPERATION = [
  rule('2024-11-05', 'lifecycle#operation', 'SHOULD', 'Both parties SHOULD: Respect the negotiated protocol version; Only use capabilities that were successfully negotiated', undefined, '2025-03-26'),
  rule('2025-06-18', 'lifecycle#operation', 'MUST', 'Both parties MUST: Respect the negotiated protocol version; Only use capabilities that were successfully negotiated'),
]

export const INITIALIZE: CheckDef = {
  id: 'lifecycle/initialize',
  title: 'initialize returns a valid InitializeResult',
  scope: 'server',
  how: 'initialize with the newest revision the kit knows (or the one --spec-version names) and no client capabilities; the result is validated with the SDK’s InitializeResultSchema as the negotiated revision defines it (see “Result shapes by revision”); what is wrong inside serverInfo and capabilities is the next two checks’',
  rules: [
    rule('2024-11-05', 'lifecycle#initialization', 'MUST', 'The server MUST respond with its own capabilities and information'),
    rule('2024-11-05', 'schema', 'SCHEMA', 'InitializeResult { protocolVersion: string; capabilities: ServerCapabilities; serverInfo: Implementation; instructions?: string }', 'shape'),
    REPLY,
  ],
}

export const PROTOCOL_VERSION: CheckDef = {
  id: 'lifecycle/protocol-version',
  title: 'the negotiated protocol version is one the server can speak',
  scope: 'server',
  how: 'the protocolVersion of the InitializeResult: the requested revision, or a counter-offer; a version that is no published revision of the spec (a well-formed date included) is none the server can support, so it fails here and in lifecycle/unsupported-version alike. A run pinned to one revision (--spec-version) ends after a counter-offer, as a client that cannot use the offered revision disconnects',
  rules: [
    rule(
      '2024-11-05',
      'lifecycle#version-negotiation',
      'MUST',
      'If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports.',
    ),
  ],
}

export const SERVER_INFO: CheckDef = {
  id: 'lifecycle/server-info',
  title: 'serverInfo names the implementation and its version',
  scope: 'server',
  how: 'serverInfo validated with the SDK’s ImplementationSchema as the negotiated revision defines it: name and version are strings (title from 2025-06-18; icons, websiteUrl and description from 2025-11-25)',
  rules: [rule('2024-11-05', 'schema', 'SCHEMA', 'InitializeResult { serverInfo: Implementation }; Implementation { name: string; version: string }')],
}

export const CAPABILITIES: CheckDef = {
  id: 'lifecycle/capabilities',
  title: 'declared capabilities are objects',
  scope: 'server',
  how: 'capabilities validated with the SDK’s ServerCapabilitiesSchema as the negotiated revision defines it: every declared capability is an object, and listChanged and subscribe are booleans (completions from 2025-03-26, tasks from 2025-11-25)',
  rules: [rule('2024-11-05', 'schema', 'SCHEMA', 'ServerCapabilities { logging?: object; prompts?: { listChanged?: boolean }; resources?: { subscribe?: boolean; listChanged?: boolean }; tools?: { listChanged?: boolean }; … }')],
}

export const PING: CheckDef = {
  id: 'lifecycle/ping',
  title: 'ping is answered with an empty result',
  scope: 'server',
  how: 'ping after notifications/initialized; the result may carry only _meta',
  rules: [rule('2024-11-05', 'ping', 'MUST', 'The receiver MUST respond promptly with an empty response'), REPLY],
}

export const CANCEL_UNKNOWN: CheckDef = {
  id: 'lifecycle/cancel-unknown-request',
  title: 'notifications/cancelled for an unknown request is ignored',
  scope: 'server',
  how: 'notifications/cancelled naming a request id the kit never sent, then a ping; an answer to the notification itself is judged by jsonrpc/no-response-to-notifications. When the server cannot answer ping at all (lifecycle/ping fails), the ping afterwards proves nothing: not testable',
  rules: [rule('2024-11-05', 'cancellation', 'SHOULD', 'Invalid cancellation notifications SHOULD be ignored: Unknown request IDs; Already completed requests')],
}

export const CANCEL_MALFORMED: CheckDef = {
  id: 'lifecycle/cancel-malformed',
  title: 'a malformed notifications/cancelled is ignored',
  scope: 'server',
  how: 'notifications/cancelled whose requestId is an object (no request id can be one), then a ping: the ping must still be answered; over HTTP an error status for the notification is a refusal the transport allows for input the server cannot accept, and is not held against it; an answer to the notification itself is judged by jsonrpc/no-response-to-notifications. When the server cannot answer ping at all (lifecycle/ping fails), the ping afterwards proves nothing: not testable',
  rules: [rule('2024-11-05', 'cancellation', 'SHOULD', 'Invalid cancellation notifications SHOULD be ignored: Malformed notifications')],
}

export const UNSUPPORTED_VERSION: CheckDef = {
  id: 'lifecycle/unsupported-version',
  title: 'initialize with an unsupported revision gets a counter-offer',
  scope: 'server',
  how: 'a second connection whose initialize asks for revision 1999-01-01',
  rules: [rule('2024-11-05', 'lifecycle#version-negotiation', 'MUST', 'Otherwise, the server MUST respond with another protocol version it supports.'), REPLY],
  note: 'A JSON-RPC error instead of a counter-offer is a warning, not a failure, for this made-up revision: the same page of the spec shows an initialization error ("Unsupported protocol version", -32602) for a request of "1.0.0" as its error-handling example. A real revision refused this way fails lifecycle/protocol-version.',
}

export const SERVER_REQUESTS: CheckDef = {
  id: 'lifecycle/server-requests',
  title: 'the server sends only requests for capabilities the client declared',
  scope: 'server',
  how: 'every request the server sends, on every connection; the kit declares no client capabilities, answers ping with {} and anything else with a JSON-RPC error; no request sent is nothing to judge',
  rules: [...OPERATION],
}

export const EARLY_REQUESTS: CheckDef = {
  id: 'lifecycle/requests-before-initialized',
  title: 'no requests but ping and logging before notifications/initialized',
  scope: 'server',
  how: 'requests the server sends between the initialize response and the notifications/initialized the kit sends; no request sent at all is nothing to judge',
  rules: [
    rule('2024-11-05', 'lifecycle#initialization', 'SHOULD NOT', 'The server SHOULD NOT send requests other than pings and logging before receiving the initialized notification.'),
  ],
}

export const INITIALIZE_FIRST: CheckDef = {
  id: 'lifecycle/initialize-first',
  title: 'no notification but logging precedes the answer to initialize',
  scope: 'server',
  how: 'the notifications the server sent on each connection before it answered initialize, in the order its messages arrived (so the verdict does not depend on when the kit wrote): any but notifications/message, which the lifecycle lets a server send before the handshake ends, is operation before initialization. A request before the answer is judged by lifecycle/requests-before-initialized, under the SHOULD NOT the lifecycle states for it',
  rules: [rule('2024-11-05', 'lifecycle#initialization', 'MUST', 'The initialization phase MUST be the first interaction between client and server.')],
}

export const SERVER_NOTIFICATIONS: CheckDef = {
  id: 'lifecycle/server-notifications',
  title: 'the server sends only notifications it negotiated',
  scope: 'server',
  how: 'every notification the server sends: list_changed needs the listChanged sub-capability, resources/updated needs subscribe, notifications/message needs logging, notifications/progress needs the progressToken of a request still in progress (the kit sends one with each --call); no notification sent is nothing to judge',
  rules: [
    ...OPERATION,
    rule('2024-11-05', 'logging#capabilities', 'MUST', 'Servers that emit log message notifications MUST declare the logging capability', 'logging'),
    rule('2024-11-05', 'progress', 'MUST', 'Progress notifications MUST only reference tokens that: Were provided in an active request; Are associated with an in-progress operation', 'progress'),
  ],
}

/** In the order the docs list them. */
export const LIFECYCLE_CHECKS: CheckDef[] = [INITIALIZE, PROTOCOL_VERSION, SERVER_INFO, CAPABILITIES, PING, CANCEL_UNKNOWN, CANCEL_MALFORMED, UNSUPPORTED_VERSION, SERVER_REQUESTS, EARLY_REQUESTS, INITIALIZE_FIRST, SERVER_NOTIFICATIONS]
