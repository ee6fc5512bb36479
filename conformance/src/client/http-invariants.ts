import type { HttpEntry, WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../model.ts'
import { LATEST_REVISION } from '../server/spec.ts'
import { FIRST_MODERN } from './eras.ts'
import { clientRule, clientSpec, firstRevision, knownRevision, type ClientRuleKey } from './rules.ts'

type Http = HttpEntry['http']

/**
 * Pure: the HTTP-level rules of Streamable HTTP sessions, from the requests the fixture logged.
 * Only for HTTP runs (stdio has no requests to judge). Judged by the revision the run negotiated
 * (`revision`, rules.ts runRevision; else the last negotiated version, else the newest): the
 * Accept and session rules are Streamable HTTP's, which 2024-11-05 does not have.
 */
export function checkHttpInvariants(http: Http[], options: { serverGone?: boolean; negotiated?: string[]; revision?: string; spokeLegacy?: boolean } = {}): CheckResult[] {
  const revision = options.revision ?? knownRevision(options.negotiated?.at(-1)) ?? LATEST_REVISION
  const legacy = [sessionHeader(http, revision), sessionDelete(http, options.serverGone ?? false, revision), protocolVersionHeader(http, options.negotiated ?? [], revision)]
  // A client that spoke only 2026-07-28 opened no session: the session rules are not its (modern-invariants.ts judges its headers).
  const judged = options.spokeLegacy === false ? legacy.map((check) => ({ ...check, status: 'skip' as const, message: `not judged: ${MODERN_ONLY}` })) : legacy
  return [...judged, acceptHeader(http, revision)]
}

const MODERN_ONLY = 'the client spoke MCP 2026-07-28 only (no initialize), which has no sessions, no Mcp-Session-Id and no DELETE (basic/transports/streamable-http, "Earlier Streamable HTTP Revisions")'

/** A skip for a rule the revision judged does not state. */
function notInRevision(id: string, title: string, key: ClientRuleKey, revision: string): CheckResult | undefined {
  if (clientRule(key, revision)) return undefined
  return { id, title, status: 'skip', message: `not judged: the client negotiated ${revision}, which does not have this rule (it is part of ${firstRevision(key)} on)`, spec: clientSpec(key, revision) }
}

/** The media types an Accept header lists (parameters and q-values left out), lower-cased. */
function acceptedTypes(accept: string | undefined): string[] {
  return (accept ?? '').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase()).filter((type) => type !== '')
}

/**
 * Every POST to the MCP endpoint lists both application/json and text/event-stream in Accept, and
 * every GET lists text/event-stream (both MUSTs of Streamable HTTP). Requests to other paths (OAuth,
 * the legacy HTTP+SSE message path of 2024-11-05, which has no such rule) and DELETEs are not judged.
 */
function acceptHeader(http: Http[], revision: string): CheckResult {
  const id = 'invariant/http-accept'
  const title = 'Every POST to the MCP endpoint accepts application/json and text/event-stream, every GET text/event-stream'
  const gated = notInRevision(id, title, 'http/accept-post', revision)
  if (gated) return gated
  const problems: string[] = []
  let judged = 0
  let getFailed = false
  for (const [index, request] of http.entries()) {
    if (request.path !== '/mcp' || (request.method !== 'POST' && request.method !== 'GET')) continue
    judged++
    const types = acceptedTypes(request.accept)
    const needed = request.method === 'POST' ? ['application/json', 'text/event-stream'] : ['text/event-stream']
    const missing = needed.filter((type) => !types.includes(type))
    if (!missing.length) continue
    if (problems.length === 0) getFailed = request.method === 'GET'
    const said = request.accept === undefined ? 'no Accept header' : `Accept ${JSON.stringify(request.accept)}`
    problems.push(`request ${index + 1} (${described(request)}, answered ${request.status}) carried ${said}, without ${missing.join(' and ')}`)
  }
  const spec = clientSpec(getFailed ? 'http/accept-get' : 'http/accept-post', revision)
  if (problems.length) return { id, title, status: 'fail', message: problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (+${problems.length - 3} more)` : ''), spec }
  if (!judged) return { id, title, status: 'skip', message: 'nothing to judge: no POST or GET reached the MCP endpoint', spec }
  return { id, title, status: 'pass', message: `${judged} requests, each with the Accept types it needs`, spec }
}

/** The protocol versions the server's initialize answers carried, in the order it sent them. */
export function negotiatedVersions(wire: WireEntry[]): string[] {
  return wire.flatMap(({ dir, msg }) => {
    const result = (msg as { result?: { protocolVersion?: unknown; serverInfo?: unknown } }).result
    return dir === 'send' && typeof result?.protocolVersion === 'string' && result.serverInfo !== undefined ? [result.protocolVersion] : []
  })
}

/** A logged request as evidence: its HTTP method, and the JSON-RPC method of a POST. */
const described = (request: Http) => (request.rpc ? `${request.method} ${request.rpc}` : request.method)

/** The revision that introduced the MCP-Protocol-Version header; a session on an older one is not held to it. */
const HEADER_SINCE = '2025-06-18'

/**
 * After initialize, every request of a session carries MCP-Protocol-Version (a MUST, for sessions
 * on a revision that has the header), with the negotiated version (a SHOULD). Sessions are paired
 * with the versions in the order both were established (the log marks a session once its
 * initialize answer began).
 */
function protocolVersionHeader(http: Http[], negotiated: string[], revision: string): CheckResult {
  const versionOf = new Map<string, string>()
  for (const request of http) if (request.newSession !== undefined && versionOf.size < negotiated.length) versionOf.set(request.newSession, negotiated[versionOf.size]!)
  const missing: string[] = []
  const other: string[] = []
  let judged = 0
  for (const [index, request] of http.entries()) {
    const version = request.session === undefined ? undefined : versionOf.get(request.session)
    if (version === undefined || version < HEADER_SINCE) continue
    judged++
    const where = `request ${index + 1} (${described(request)})`
    if (request.protocolVersion === undefined) missing.push(`${where} carried no MCP-Protocol-Version (negotiated ${version})`)
    else if (request.protocolVersion !== version) other.push(`${where} carried MCP-Protocol-Version ${request.protocolVersion}, not the negotiated ${version}`)
  }
  const id = 'invariant/http-protocol-version'
  const title = 'Every request after initialize carries MCP-Protocol-Version, the negotiated one'
  // Judged per session (each on its own version); cited as the run's revision states it, or as the first that has it.
  const cited = clientRule('http/protocol-version-header', revision) ? revision : HEADER_SINCE
  const spec = clientSpec('http/protocol-version-header', cited)
  if (missing.length) return { id, title, status: 'fail', message: missing.slice(0, 3).join('; '), spec }
  if (other.length) return { id, title, status: 'warn', message: other.slice(0, 3).join('; '), spec: clientSpec('http/protocol-version-value', cited) }
  if (!judged) return { id, title, status: 'skip', message: `nothing to judge: no request after an initialize that negotiated ${HEADER_SINCE} or later`, spec }
  return { id, title, status: 'pass', message: `${judged} requests, each with the negotiated version`, spec }
}

/**
 * Requests without the session header in a session the client took: the server gave an id with
 * its initialize answer, and the client went on (its notifications/initialized, the request that
 * accepts the answer). A client that turned the answer down (a protocol version it does not know,
 * which it SHOULD disconnect from) or gave up on it is not using that session. A session ends at a
 * 404 answer to a request that carried it (the server no longer knows it), at the client's DELETE
 * of it, and at the client's next initialize (a new connection): what the client sends after the
 * end and before it takes a new session is no "subsequent request" of the old one. A
 * `server/discover` request is the version probe of a client that speaks 2026-07-28, which has no
 * sessions: it belongs to no session, so it is never held to this rule.
 */
export function missingSessionHeaders(http: Http[]): string[] {
  return sessionUse(http).problems
}

function sessionUse(http: Http[]): { problems: string[]; taken: number } {
  let offered = false
  let taken = false
  let sessions = 0
  const problems: string[] = []
  for (const [index, request] of http.entries()) {
    if (request.path !== '/mcp') continue
    if (request.newSession) {
      offered = true
      taken = false
      continue
    }
    // A modern request (its body's _meta names 2026-07-28 or later) belongs to no session.
    if (request.metaVersion !== undefined && request.metaVersion >= FIRST_MODERN) continue
    if (request.rpc === 'initialize' || request.rpc === 'server/discover') {
      if (request.rpc === 'initialize') offered = taken = false
      continue
    }
    if (offered && !taken && request.rpc === 'notifications/initialized') {
      taken = true
      sessions++
    }
    if (taken && request.session === undefined) problems.push(`request ${index + 1} (${described(request)}, answered ${request.status}) carried no Mcp-Session-Id`)
    if (request.session !== undefined && (request.status === 404 || request.method === 'DELETE')) offered = taken = false
  }
  return { problems, taken: sessions }
}

function sessionHeader(http: Http[], revision: string): CheckResult {
  const id = 'invariant/http-session-header'
  const title = 'Every request after initialize carries the Mcp-Session-Id the server assigned'
  const gated = notInRevision(id, title, 'http/session-header', revision)
  if (gated) return gated
  const { problems, taken } = sessionUse(http)
  return {
    id,
    title,
    // No session taken, no request to judge: a skip that says so, never a pass over nothing.
    status: problems.length ? 'fail' : taken ? 'pass' : 'skip',
    message: problems.length
      ? problems.slice(0, 3).join('; ')
      : taken
        ? `${taken} sessions over ${http.length} HTTP requests, each request with its session`
        : `nothing to judge: the client took no session (none was assigned, or it never sent notifications/initialized after the answer that assigned one) (${http.length} HTTP requests)`,
    spec: clientSpec('http/session-header', revision),
  }
}

/**
 * The last session the client held is ended with DELETE (a SHOULD: a warning when it is not).
 * Owed only for a session the client went on to use (a request carrying its id after the one that
 * opened it: an initialize that was never answered leaves no session to end), and only while it was
 * still healthy at close: one its server dropped, expired or failed is over.
 */
function sessionDelete(http: Http[], serverGone: boolean, revision: string): CheckResult {
  const id = 'invariant/http-session-delete'
  const title = 'A client done with its session ends it with DELETE'
  const gated = notInRevision(id, title, 'http/session-delete', revision)
  if (gated) return gated
  const opened = http.findLastIndex((request) => request.newSession !== undefined)
  const last = opened < 0 ? undefined : http[opened]!.newSession
  const deleted = last !== undefined && http.some((request) => request.method === 'DELETE' && request.session === last)
  const broken = http.slice(opened + 1).some((request) => request.method !== 'DELETE' && (request.status === 'dropped' || request.status >= 400))
  const used = last !== undefined && http.slice(opened + 1).some((request) => request.session === last)
  const owed = used && !broken && !serverGone
  return {
    id,
    title,
    // Nothing owed is a skip that says why; a DELETE sent anyway is a pass.
    status: deleted ? 'pass' : owed ? 'warn' : 'skip',
    message: deleted ? 'the session was ended with DELETE' : last === undefined ? 'nothing to judge: no session was opened' : !used ? 'nothing to judge: the session was never used after the request that opened it, so no DELETE is owed' : broken || serverGone ? 'nothing to judge: the session or its server had ended before close, so no DELETE is owed' : 'the client closed without sending DELETE for its session',
    spec: clientSpec('http/session-delete', revision),
  }
}
