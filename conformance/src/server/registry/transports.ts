/** The stdio and Streamable HTTP transport checks. Streamable HTTP arrived in 2025-03-26. */
import { rule, type CheckDef } from './rules.ts'

export const STDOUT_ONLY_JSONRPC: CheckDef = {
  id: 'stdio/stdout-only-jsonrpc',
  title: 'stdout carries nothing but MCP messages',
  scope: 'server',
  transport: 'stdio',
  how: 'every stdout line of both connections is a JSON-RPC message; a blank line counts as noise too',
  rules: [rule('2024-11-05', 'transports#stdio', 'MUST NOT', 'The server MUST NOT write anything to its stdout that is not a valid MCP message.')],
}

export const STDIO_UTF8: CheckDef = {
  id: 'stdio/utf8',
  title: 'stdout carries UTF-8',
  scope: 'server',
  transport: 'stdio',
  how: 'every stdout line of both connections is valid UTF-8 (the kit still reads a line with invalid bytes, with replacement characters, so only this check reports them)',
  rules: [rule('2025-03-26', 'transports', 'MUST', 'MCP uses JSON-RPC to encode messages. JSON-RPC messages MUST be UTF-8 encoded.')],
}

const SHUTDOWN = 'For the stdio transport, the client SHOULD initiate shutdown by: First, closing the input stream to the child process (the server); Waiting for the server to exit, or sending SIGTERM if the server does not exit within a reasonable time; Sending SIGKILL if the server does not exit within a reasonable time after SIGTERM'

export const EXIT_ON_STDIN_CLOSE: CheckDef = {
  id: 'stdio/exit-on-stdin-close',
  title: 'the server exits when stdin closes',
  scope: 'server',
  transport: 'stdio',
  how: 'closes stdin, then escalates to SIGTERM and SIGKILL after 5 s each',
  rules: [rule('2024-11-05', 'lifecycle#shutdown', 'NONE', SHUTDOWN)],
  note: 'The shutdown sequence is the client’s to follow; no sentence obliges the server to exit on EOF, so needing a signal is information.',
}

export const NO_ORPHANS: CheckDef = {
  id: 'stdio/no-orphans',
  title: 'no processes of the server outlive it',
  scope: 'server',
  transport: 'stdio',
  how: "while the server runs and before each shutdown step the kit records its descendants (by descent, from the process table: one that left the process group is found too); after it exits, any of them, or any member of its process group, still running is reported and killed by its pid. The shutdown signals go to the server's pid, as a client sends them, not to its group, so they do not hide what it leaves behind. Both server processes of a run are judged; not on Windows",
  rules: [rule('2024-11-05', 'lifecycle#shutdown', 'NONE', SHUTDOWN)],
  note: 'The shutdown sequence binds the client, and no sentence obliges the server to end the processes it starts; a process left running after the server exited is reported as information.',
}

export const POST_RESPONSE_TYPE: CheckDef = {
  id: 'http/post-response-type',
  title: 'requests are answered as application/json or text/event-stream',
  scope: 'server',
  transport: 'http',
  how: 'the Content-Type of every 2xx answer to a POSTed request',
  rules: [
    rule(
      '2025-03-26',
      'transports#sending-messages-to-the-server',
      'MUST',
      'If the input contains any number of JSON-RPC requests, the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object.',
      undefined,
      '2025-03-26',
    ),
    rule(
      '2025-06-18',
      'transports#sending-messages-to-the-server',
      'MUST',
      'If the input is a JSON-RPC request, the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object.',
    ),
  ],
}

export const NOTIFICATION_ACCEPTED: CheckDef = {
  id: 'http/notification-accepted',
  title: 'an accepted notification gets 202 Accepted with no body',
  scope: 'server',
  transport: 'http',
  how: 'the POST of notifications/initialized: a 2xx other than 202, or a 202 with a body, breaks the sentence; an HTTP error status (4xx, 5xx) is a refusal, which the spec allows (“If the server cannot accept the input, it MUST return an HTTP error status code (e.g., 400 Bad Request).”), and is information',
  rules: [rule('2025-03-26', 'transports#sending-messages-to-the-server', 'MUST', 'If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body.')],
  note: 'A server that refuses the initialized notification breaks no sentence, but clients that treat the refusal as an error cannot connect to it.',
}

export const REPLY_ACCEPTED: CheckDef = {
  id: 'http/reply-accepted',
  title: 'the kit’s answers to server requests get 202 Accepted with no body',
  scope: 'server',
  transport: 'http',
  how: 'every JSON-RPC response the kit POSTs back (its answer to a request the server sent it): a 2xx other than 202, a 202 with a body, or no HTTP answer breaks the sentence; an HTTP error status is a refusal the spec allows, and is information; without a server request there is nothing to judge',
  rules: [rule('2025-03-26', 'transports#sending-messages-to-the-server', 'MUST', 'If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body.')],
}

export const SESSION_ID: CheckDef = {
  id: 'http/session-id',
  title: 'a session id, when issued, is visible ASCII',
  scope: 'server',
  transport: 'http',
  how: 'the Mcp-Session-Id of the initialize response',
  rules: [rule('2025-03-26', 'transports#session-management', 'MUST', 'The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E).')],
}

export const SESSION_REQUIRED: CheckDef = {
  id: 'http/session-required',
  title: 'a request without the issued session id gets 400',
  scope: 'server',
  transport: 'http',
  how: 'a ping without Mcp-Session-Id, when one was issued',
  rules: [
    // The same sentence; 2025-11-25 respelled the header name.
    rule(
      '2025-03-26',
      'transports#session-management',
      'SHOULD',
      'Servers that require a session ID SHOULD respond to requests without an Mcp-Session-Id header (other than initialization) with HTTP 400 Bad Request.',
      undefined,
      '2025-06-18',
    ),
    rule('2025-11-25', 'transports#session-management', 'SHOULD', 'Servers that require a session ID SHOULD respond to requests without an MCP-Session-Id header (other than initialization) with HTTP 400 Bad Request.'),
  ],
}

export const SESSION_UNKNOWN: CheckDef = {
  id: 'http/session-unknown',
  title: 'a request with a session id the server never issued gets 404',
  scope: 'server',
  transport: 'http',
  how: 'a ping with an Mcp-Session-Id the server never issued',
  rules: [
    rule(
      '2025-03-26',
      'transports#session-management',
      'NONE',
      'The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found.',
    ),
  ],
  note: 'The sentence covers sessions the server ended; an id it never issued is not covered, so anything but 404 is information (404 is what makes a client start a new session).',
}

export const VERSION_HEADER: CheckDef = {
  id: 'http/protocol-version-header',
  title: 'the negotiated MCP-Protocol-Version header is accepted',
  scope: 'server',
  transport: 'http',
  how: 'a ping with MCP-Protocol-Version set to the negotiated revision',
  rules: [rule('2025-06-18', 'lifecycle#operation', 'MUST', 'Both parties MUST: Respect the negotiated protocol version')],
}

export const VERSION_HEADER_INVALID: CheckDef = {
  id: 'http/protocol-version-invalid',
  title: 'an unsupported MCP-Protocol-Version header gets 400',
  scope: 'server',
  transport: 'http',
  how: 'a ping with MCP-Protocol-Version: 1999-01-01',
  rules: [rule('2025-06-18', 'transports#protocol-version-header', 'MUST', 'If the server receives a request with an invalid or unsupported MCP-Protocol-Version, it MUST respond with 400 Bad Request.')],
}

export const BATCH: CheckDef = {
  id: 'http/batch',
  title: 'JSON-RPC batches are handled as the revision says',
  scope: 'server',
  transport: 'http',
  how: 'a POST whose body is a batch of two pings',
  rules: [
    rule('2025-03-26', 'base#batching', 'MUST', 'MCP implementations MAY support sending JSON-RPC batches, but MUST support receiving JSON-RPC batches.', undefined, '2025-03-26'),
    rule('2025-06-18', 'transports#sending-messages-to-the-server', 'NONE', 'The body of the POST request MUST be a single JSON-RPC request, notification, or response.'),
  ],
  note: 'From 2025-06-18 the rule binds the client only; whether a server still accepts a batch is information.',
}

export const ORIGIN: CheckDef = {
  id: 'http/origin-rejected',
  title: 'a request from a foreign Origin is refused (DNS-rebinding protection)',
  scope: 'server',
  transport: 'http',
  how: 'a ping with Origin: http://evil.example',
  rules: [
    rule('2024-11-05', 'transports#security-warning', 'MUST', 'Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks', undefined, '2025-06-18'),
    rule('2025-11-25', 'transports#security-warning', 'MUST', 'If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden.'),
  ],
}

export const SESSION_DELETE: CheckDef = {
  id: 'http/session-delete',
  title: 'DELETE ends the session; reusing it gets 404',
  scope: 'server',
  transport: 'http',
  how: 'DELETE with the session id, then a ping that reuses it; 405 for the DELETE is allowed',
  rules: [
    rule(
      '2025-03-26',
      'transports#session-management',
      'MUST',
      'The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found.',
    ),
    rule('2025-03-26', 'transports#session-management', 'NONE', 'The server MAY respond to this request with HTTP 405 Method Not Allowed, indicating that the server does not allow clients to terminate sessions.', 'refused'),
  ],
}

export const GET_STREAM: CheckDef = {
  id: 'http/get-stream',
  title: 'GET opens an SSE stream or is refused with 405',
  scope: 'server',
  transport: 'http',
  how: 'a GET with Accept: text/event-stream and the session id; the stream is closed once its headers arrived',
  rules: [
    rule(
      '2025-03-26',
      'transports#listening-for-messages-from-the-server',
      'MUST',
      'The server MUST either return Content-Type: text/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream at this endpoint.',
    ),
  ],
}

export const SSE_PRIMING: CheckDef = {
  id: 'http/sse-priming',
  title: 'an event stream opens with a priming event',
  scope: 'server',
  transport: 'http',
  how: 'every request answered with text/event-stream: its first event carries an id and empty data',
  rules: [
    rule(
      '2025-11-25',
      'transports#sending-messages-to-the-server',
      'SHOULD',
      'The server SHOULD immediately send an SSE event consisting of an event ID and an empty data field in order to prime the client to reconnect (using that event ID as Last-Event-ID).',
    ),
  ],
}

export const SSE_RESUMPTION: CheckDef = {
  id: 'http/sse-resumption',
  title: 'a stream closed before its response is resumable, with retry',
  scope: 'server',
  transport: 'http',
  how: 'when the server closes a request’s stream before the response, the kit waits the retry it sent and resumes with GET and Last-Event-ID until the response arrives (within the request timeout); a stream that never carries the response (open until the timeout, or closed with nothing to resume) breaks the same sentence, in every revision that has it',
  rules: [
    rule('2025-11-25', 'transports#sending-messages-to-the-server', 'SHOULD', 'The SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC request sent in the POST body.'),
    rule(
      '2025-03-26',
      'transports#sending-messages-to-the-server',
      'SHOULD',
      'The SSE stream SHOULD eventually include one JSON-RPC response per each JSON-RPC request sent in the POST body.',
      'unanswered',
      '2025-03-26',
    ),
    rule('2025-06-18', 'transports#sending-messages-to-the-server', 'SHOULD', 'The SSE stream SHOULD eventually include JSON-RPC response for the JSON-RPC request sent in the POST body.', 'unanswered', '2025-06-18'),
    rule(
      '2025-11-25',
      'transports#sending-messages-to-the-server',
      'SHOULD',
      'If the server does close the connection prior to terminating the SSE stream, it SHOULD send an SSE event with a standard retry field before closing the connection.',
      'retry',
    ),
  ],
}

export const SSE_END: CheckDef = {
  id: 'http/sse-end',
  title: 'an event stream ends after the response it carries',
  scope: 'server',
  transport: 'http',
  how: 'every request of the run answered on an event stream (its own, or the one the kit resumed with GET and Last-Event-ID when the server polls): after the response the kit reads on, for as long as its request timeout (requestTimeoutMs), and a stream the server has not ended by then was not closed after its response; a stream that never carried its response is http/sse-resumption’s',
  rules: [
    rule('2025-03-26', 'transports#sending-messages-to-the-server', 'SHOULD', 'After all JSON-RPC responses have been sent, the server SHOULD close the SSE stream.', undefined, '2025-03-26'),
    rule('2025-06-18', 'transports#sending-messages-to-the-server', 'SHOULD', 'After the JSON-RPC response has been sent, the server SHOULD close the SSE stream.', undefined, '2025-06-18'),
    rule('2025-11-25', 'transports#sending-messages-to-the-server', 'SHOULD', 'After the JSON-RPC response has been sent, the server SHOULD terminate the SSE stream.'),
  ],
}

export const SSE_EVENT_IDS: CheckDef = {
  id: 'http/sse-event-ids',
  title: 'SSE event ids are unique across the session’s streams',
  scope: 'server',
  transport: 'http',
  how: 'the event ids of every event stream that answered a request of the run’s session: an id that one request’s stream carried must not appear on another request’s stream (a resumption of the same stream may carry its ids again); a server that sends no ids has nothing to judge',
  rules: [
    rule(
      '2025-03-26',
      'transports#resumability-and-redelivery',
      'MUST',
      'If present, the ID MUST be globally unique across all streams within that session—or all streams with that specific client, if session management is not in use.',
    ),
  ],
}

export const GET_NO_RESPONSE: CheckDef = {
  id: 'http/get-stream-no-response',
  title: 'the GET stream carries no JSON-RPC response',
  scope: 'server',
  transport: 'http',
  how: 'the session’s GET stream (no Last-Event-ID: it resumes nothing), held open while the kit lists and calls tools, prompts and resources and closed before the transport probes: no message on it is a JSON-RPC response; a GET the server refuses (405) has nothing to judge',
  rules: [
    rule(
      '2025-03-26',
      'transports#listening-for-messages-from-the-server',
      'MUST NOT',
      'The server MUST NOT send a JSON-RPC response on the stream unless resuming a stream associated with a previous client request.',
    ),
  ],
}

export const NO_BROADCAST: CheckDef = {
  id: 'http/no-broadcast',
  title: 'each server message goes on one stream only',
  scope: 'server',
  transport: 'http',
  how: 'every request the server sent on the session’s request streams and on its GET stream (held open while the kit lists and calls): the same request (id, method and params) on two of them is one message broadcast. Notifications carry no identity (two alike may be two messages) and responses on the GET stream are http/get-stream-no-response’s, so neither is counted; a server that sends no request has nothing to judge',
  rules: [
    rule(
      '2025-03-26',
      'transports#multiple-connections',
      'MUST NOT',
      'The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams.',
    ),
  ],
}

export const REPLAY_OWN_STREAM: CheckDef = {
  id: 'http/replay-own-stream',
  title: 'a resumed stream replays only its own messages',
  scope: 'server',
  transport: 'http',
  how: 'every request stream the kit resumed with GET and Last-Event-ID (when the server closed it before the response): nothing on the resumption may be a response to another of the kit’s requests, or a server request another stream already carried; a server that closes no stream early has nothing to judge',
  rules: [rule('2025-03-26', 'transports#resumability-and-redelivery', 'MUST NOT', 'The server MUST NOT replay messages that would have been delivered on a different stream.')],
}

/** In the order the docs list them. */
export const TRANSPORT_CHECKS: CheckDef[] = [
  STDOUT_ONLY_JSONRPC,
  STDIO_UTF8,
  EXIT_ON_STDIN_CLOSE,
  NO_ORPHANS,
  POST_RESPONSE_TYPE,
  NOTIFICATION_ACCEPTED,
  REPLY_ACCEPTED,
  SESSION_ID,
  SESSION_REQUIRED,
  SESSION_UNKNOWN,
  VERSION_HEADER,
  VERSION_HEADER_INVALID,
  SSE_PRIMING,
  SSE_RESUMPTION,
  SSE_END,
  SSE_EVENT_IDS,
  REPLAY_OWN_STREAM,
  NO_BROADCAST,
  BATCH,
  ORIGIN,
  GET_STREAM,
  GET_NO_RESPONSE,
  SESSION_DELETE,
]
