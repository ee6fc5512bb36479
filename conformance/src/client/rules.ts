import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckStatus, SpecRef } from '../model.ts'
import { atLeast, KNOWN_REVISIONS, LATEST_REVISION, type Revision } from '../server/spec.ts'

/**
 * Pure: the spec sentences a client is judged by, per revision, as conformance/src/server/registry
 * holds the server's. A verdict cites the page and the words of the revision the client
 * negotiated, and a rule whose sentence that revision does not have is not judged. The status of a
 * breach comes from the sentence's keyword, never from the code that observes the client:
 * MUST → fail, SHOULD → warn, no keyword or MAY → information (a `skip` that says so). BRIDGE is
 * not the spec but the mcp-bridge plugin's own contract: a failure for a bridge only.
 */
export type ClientKeyword = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'NONE' | 'BRIDGE'

export interface ClientRule {
  /** First revision that states the sentence; `until` is the last (absent: still in force). */
  from: Revision
  until?: Revision
  /** The page under specification/<revision>/, e.g. basic/lifecycle. */
  page: string
  /** The heading's anchor on that page; empty for the page's opening paragraphs. */
  anchor: string
  section: string
  keyword: ClientKeyword
  /** The sentence as the revision states it (emphasis markup removed). */
  quote: string
}

const rule = (from: Revision, until: Revision | undefined, page: string, anchor: string, section: string, keyword: ClientKeyword, quote: string): ClientRule => ({ from, ...(until ? { until } : {}), page, anchor, section, keyword, quote })

const SHUTDOWN_STDIO =
  'the client SHOULD initiate shutdown by: First, closing the input stream to the child process (the server); Waiting for the server to exit, or sending SIGTERM if the server does not exit within a reasonable time; Sending SIGKILL if the server does not exit within a reasonable time after SIGTERM'

/** Every client rule the kit's own code judges (scenario sentences live in scenarios/*.yaml). */
export const CLIENT_RULES = {
  'handshake/first': [rule('2024-11-05', undefined, 'basic/lifecycle', 'initialization', 'Initialization', 'MUST', 'The initialization phase MUST be the first interaction between client and server.')],
  'handshake/initialized': [
    rule('2024-11-05', undefined, 'basic/lifecycle', 'initialization', 'Initialization', 'MUST', 'After successful initialization, the client MUST send an initialized notification to indicate it is ready to begin normal operations'),
  ],
  'handshake/early': [
    rule('2024-11-05', undefined, 'basic/lifecycle', 'initialization', 'Initialization', 'SHOULD NOT', 'The client SHOULD NOT send requests other than pings before the server has responded to the initialize request.'),
  ],
  'handshake/version': [rule('2024-11-05', undefined, 'basic/lifecycle', 'version-negotiation', 'Version Negotiation', 'MUST', 'In the initialize request, the client MUST send a protocol version it supports.')],
  'envelope/jsonrpc': [rule('2024-11-05', undefined, 'basic', '', 'Base Protocol', 'MUST', 'All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.')],
  'envelope/id': [
    rule('2024-11-05', '2024-11-05', 'basic/messages', 'requests', 'Requests', 'MUST', 'Requests MUST include a string or integer ID.'),
    rule('2025-03-26', undefined, 'basic', 'requests', 'Requests', 'MUST', 'Requests MUST include a string or integer ID.'),
  ],
  'envelope/nullId': [
    rule('2024-11-05', '2024-11-05', 'basic/messages', 'requests', 'Requests', 'MUST NOT', 'Unlike base JSON-RPC, the ID MUST NOT be null.'),
    rule('2025-03-26', undefined, 'basic', 'requests', 'Requests', 'MUST NOT', 'Unlike base JSON-RPC, the ID MUST NOT be null.'),
  ],
  'envelope/reused': [
    rule('2024-11-05', '2024-11-05', 'basic/messages', 'requests', 'Requests', 'MUST NOT', 'The request ID MUST NOT have been previously used by the requestor within the same session.'),
    rule('2025-03-26', undefined, 'basic', 'requests', 'Requests', 'MUST NOT', 'The request ID MUST NOT have been previously used by the requestor within the same session.'),
  ],
  'envelope/notificationId': [
    rule('2024-11-05', '2024-11-05', 'basic/messages', 'notifications', 'Notifications', 'MUST NOT', 'Notifications MUST NOT include an ID.'),
    rule('2025-03-26', undefined, 'basic', 'notifications', 'Notifications', 'MUST NOT', 'Notifications MUST NOT include an ID.'),
  ],
  'cancellation/issued': [
    rule('2024-11-05', undefined, 'basic/utilities/cancellation', 'behavior-requirements', 'Behavior Requirements', 'MUST', 'Cancellation notifications MUST only reference requests that: Were previously issued in the same direction'),
  ],
  'cancellation/initialize': [rule('2024-11-05', undefined, 'basic/utilities/cancellation', 'behavior-requirements', 'Behavior Requirements', 'MUST NOT', 'The initialize request MUST NOT be cancelled by clients')],
  'cancellation/task': [
    rule('2025-11-25', undefined, 'basic/utilities/cancellation', 'behavior-requirements', 'Behavior Requirements', 'MUST', 'For task-augmented requests, the tasks/cancel request MUST be used instead of the notifications/cancelled notification.'),
  ],
  'ping/answer': [rule('2024-11-05', undefined, 'basic/utilities/ping', 'behavior-requirements', 'Behavior Requirements', 'MUST', 'The receiver MUST respond promptly with an empty response')],
  'shutdown/stdio': [rule('2024-11-05', undefined, 'basic/lifecycle', 'shutdown', 'Shutdown (stdio)', 'SHOULD', SHUTDOWN_STDIO)],
  'timeouts/requests': [
    rule('2024-11-05', '2024-11-05', 'basic/lifecycle', 'error-handling', 'Error Handling', 'SHOULD', 'Implementations SHOULD implement appropriate timeouts for all requests, to prevent hung connections and resource exhaustion.'),
    rule('2025-03-26', undefined, 'basic/lifecycle', 'timeouts', 'Timeouts', 'SHOULD', 'Implementations SHOULD establish timeouts for all sent requests, to prevent hung connections and resource exhaustion.'),
  ],
  'http/accept-post': [
    rule('2025-03-26', undefined, 'basic/transports', 'sending-messages-to-the-server', 'Streamable HTTP: Sending Messages to the Server', 'MUST', 'The client MUST include an Accept header, listing both application/json and text/event-stream as supported content types.'),
  ],
  'http/accept-get': [
    rule('2025-03-26', undefined, 'basic/transports', 'listening-for-messages-from-the-server', 'Streamable HTTP: Listening for Messages from the Server', 'MUST', 'The client MUST include an Accept header, listing text/event-stream as a supported content type.'),
  ],
  'http/session-header': [
    rule('2025-03-26', '2025-06-18', 'basic/transports', 'session-management', 'Session Management', 'MUST', 'clients using the Streamable HTTP transport MUST include it in the Mcp-Session-Id header on all of their subsequent HTTP requests.'),
    // 2025-11-25 spells the header MCP-Session-Id.
    rule('2025-11-25', undefined, 'basic/transports', 'session-management', 'Session Management', 'MUST', 'clients using the Streamable HTTP transport MUST include it in the MCP-Session-Id header on all of their subsequent HTTP requests.'),
  ],
  'http/session-delete': [
    rule('2025-03-26', '2025-06-18', 'basic/transports', 'session-management', 'Session Management', 'SHOULD', 'Clients that no longer need a particular session (e.g., because the user is leaving the client application) SHOULD send an HTTP DELETE to the MCP endpoint with the Mcp-Session-Id header, to explicitly terminate the session.'),
    rule('2025-11-25', undefined, 'basic/transports', 'session-management', 'Session Management', 'SHOULD', 'Clients that no longer need a particular session (e.g., because the user is leaving the client application) SHOULD send an HTTP DELETE to the MCP endpoint with the MCP-Session-Id header, to explicitly terminate the session.'),
  ],
  'http/protocol-version-header': [
    rule('2025-06-18', undefined, 'basic/transports', 'protocol-version-header', 'Protocol Version Header', 'MUST', 'the client MUST include the MCP-Protocol-Version: <protocol-version> HTTP header on all subsequent requests to the MCP server'),
  ],
  'http/protocol-version-value': [
    rule('2025-06-18', undefined, 'basic/transports', 'protocol-version-header', 'Protocol Version Header', 'SHOULD', 'The protocol version sent by the client SHOULD be the one negotiated during initialization.'),
  ],
  'pagination/opaque': [
    rule('2025-03-26', undefined, 'server/utilities/pagination', 'implementation-guidelines', 'Implementation Guidelines', 'MUST', "Clients MUST treat cursors as opaque tokens: Don't attempt to parse or modify cursors"),
  ],
  'capabilities/negotiated': [
    rule('2025-03-26', '2025-03-26', 'basic/lifecycle', 'operation', 'Operation', 'SHOULD', 'Both parties SHOULD: Only use capabilities that were successfully negotiated'),
    rule('2025-06-18', undefined, 'basic/lifecycle', 'operation', 'Operation', 'MUST', 'Both parties MUST: Only use capabilities that were successfully negotiated'),
  ],
} as const satisfies Record<string, readonly ClientRule[]>

export type ClientRuleKey = keyof typeof CLIENT_RULES

/** The revision a run is judged by: the last one a server's initialize answer negotiated, else the last one the client offered, else the newest. */
export function runRevision(wire: WireEntry[]): Revision {
  let offered: string | undefined
  let negotiated: string | undefined
  for (const { dir, msg } of wire) {
    const m = msg as { method?: string; params?: { protocolVersion?: unknown }; result?: { protocolVersion?: unknown; serverInfo?: unknown } }
    if (dir === 'recv' && m.method === 'initialize' && typeof m.params?.protocolVersion === 'string') offered = m.params.protocolVersion
    if (dir === 'send' && typeof m.result?.protocolVersion === 'string' && m.result.serverInfo !== undefined) negotiated = m.result.protocolVersion
  }
  return knownRevision(negotiated) ?? knownRevision(offered) ?? LATEST_REVISION
}

/** A revision the kit knows, or undefined (an unknown string is judged by none). */
export function knownRevision(version: string | undefined): Revision | undefined {
  return (KNOWN_REVISIONS as readonly string[]).includes(version ?? '') ? (version as Revision) : undefined
}

/** The rule in force in `revision`, if that revision states it. */
export function clientRule(key: ClientRuleKey, revision: string): ClientRule | undefined {
  return (CLIENT_RULES[key] as readonly ClientRule[]).find((r) => atLeast(revision, r.from) && (r.until === undefined || !atLeast(revision, nextAfter(r.until))))
}

function nextAfter(revision: Revision): string {
  const newerFirst = KNOWN_REVISIONS as readonly string[]
  const index = newerFirst.indexOf(revision)
  return index > 0 ? newerFirst[index - 1]! : '9999-99-99'
}

/** The first revision that states the rule, for "not part of" messages. */
export function firstRevision(key: ClientRuleKey): Revision {
  return (CLIENT_RULES[key] as readonly ClientRule[]).map((r) => r.from).sort()[0]!
}

/** A rule as a citation of the revision judged: its page, its words, its keyword. */
export function citeRule(rule: ClientRule, revision: string): SpecRef {
  const url = `https://modelcontextprotocol.io/specification/${revision}/${rule.page}${rule.anchor ? `#${rule.anchor}` : ''}`
  return { ref: `MCP ${revision} §${rule.page} (${rule.section}): "${rule.quote}"`, url, keyword: rule.keyword, quote: rule.quote }
}

/** The citation of `key` in `revision`; a rule the revision lacks cites its first revision (for a skip that says it is not judged). */
export function clientSpec(key: ClientRuleKey, revision: string): SpecRef {
  const inForce = clientRule(key, revision)
  return inForce ? citeRule(inForce, revision) : citeRule(clientRule(key, firstRevision(key))!, firstRevision(key))
}

/** The status a breach of a sentence with this keyword gets (a bridge's own rule fails the bridge only; verdicts.ts keeps it from other clients). */
export function breachStatus(keyword: string | undefined): CheckStatus {
  if (keyword === 'MUST' || keyword === 'MUST NOT' || keyword === 'BRIDGE') return 'fail'
  if (keyword === 'SHOULD' || keyword === 'SHOULD NOT') return 'warn'
  return 'skip'
}

/** RFC 2119 keywords in a text, strongest first: the force a sentence quoting them has. */
export function strongestKeyword(text: string): 'MUST' | 'SHOULD' | 'MAY' | 'NONE' {
  if (/\b(MUST|REQUIRED|SHALL)\b/.test(text)) return 'MUST'
  if (/\b(SHOULD|RECOMMENDED)\b/.test(text)) return 'SHOULD'
  if (/\b(MAY|OPTIONAL)\b/.test(text)) return 'MAY'
  return 'NONE'
}

/**
 * The force of a citation: its recorded keyword (the kit's own rules), else the strongest RFC 2119
 * keyword in the words it quotes (`quote`, or what its ref holds in double quotes). A scenario's
 * reference that names a section without quoting a sentence has no force: the spec is not shown to
 * ask anything there. SCHEMA (the schema a message must match) is a MUST.
 */
export function citedForce(spec: SpecRef | undefined): 'MUST' | 'SHOULD' | 'MAY' | 'NONE' | 'BRIDGE' {
  if (spec === undefined) return 'NONE'
  if (spec.keyword === 'SCHEMA') return 'MUST'
  if (spec.keyword !== undefined) return keywordLevel(spec.keyword) === 'NONE' ? strongestKeyword(spec.keyword) : keywordLevel(spec.keyword)
  return strongestKeyword(spec.quote ?? [...spec.ref.matchAll(/"([^"]*)"/g)].map((m) => m[1]).join(' '))
}

/** The level a keyword stands for (MUST NOT is a MUST, SHOULD NOT a SHOULD). */
export function keywordLevel(keyword: string | undefined): 'MUST' | 'SHOULD' | 'MAY' | 'NONE' | 'BRIDGE' {
  if (keyword === 'MUST' || keyword === 'MUST NOT') return 'MUST'
  if (keyword === 'SHOULD' || keyword === 'SHOULD NOT') return 'SHOULD'
  if (keyword === 'BRIDGE') return 'BRIDGE'
  return keyword === 'MAY' ? 'MAY' : 'NONE'
}

/**
 * The mcp-bridge plugin's own rules that make a spec SHOULD a failure for a bridge (its design and
 * README), keyword BRIDGE: a bridge's failure cites these, never the spec's SHOULD as a MUST.
 */
export const BRIDGE_RULES: Record<string, SpecRef> = {
  'invariant/no-orphans': bridgeRule('seed 000 §Subprocess lifecycle (no orphans); plugin/README.md', 'dispose … returns once every process it started is gone'),
  'expect/shutdown': bridgeRule('seed 000 §Subprocess lifecycle; plugin/README.md', 'Stopping a child closes stdin, then sends SIGTERM and SIGKILL to its whole process group'),
  'expect/running': bridgeRule('seed 001 §Behavior (a client that gave up keeps no server); conformance/src/client/scenario.ts "running"', '0 after a failed initialize or a spent budget: a stopped client keeps none'),
  'invariant/raw-names-on-wire': bridgeRule('seed 000 §Tool execution; plugin/README.md "Naming"', 'Every MCP tool has two names: its raw name, used only on the wire in tools/call, and its public name, the model-facing name on the tools service'),
}

function bridgeRule(where: string, quote: string): SpecRef {
  return { ref: `mcp-bridge contract (BRIDGE: the bridge's own rule, not the spec), ${where}: "${quote}"`, keyword: 'BRIDGE', quote }
}
