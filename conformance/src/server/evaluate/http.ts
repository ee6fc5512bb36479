/** Pure verdicts on the Streamable HTTP transport, from raw exchanges the probe recorded. */
import type { CheckResult } from '../../model.ts'
import { isObject, list, verdict } from '../check.ts'
import { atLeast, spec } from '../spec.ts'
import type { HttpResponseInfo } from '../wire/http-post.ts'
import type { PostRecord } from '../wire/http.ts'
import type { NotifyOutcome } from '../wire/types.ts'

/** One raw probe: what was sent (the headers that matter) and what came back. */
export interface Probe {
  request: { method: string; headers: Record<string, string>; body?: unknown }
  response: HttpResponseInfo
}

export interface HttpObservation {
  version: string
  sessionId: string | null
  posts: PostRecord[]
  initialized: NotifyOutcome
  noSession?: Probe
  unknownSession?: Probe
  versionHeader?: Probe
  invalidVersionHeader?: Probe
  batch?: Probe
  foreignOrigin?: Probe
  /** DELETE of the session, then a request that reuses it. */
  deleted?: { del: Probe; after?: Probe }
}

export function probeWire(probe: Probe): unknown[] {
  const { response } = probe
  const reply = response.status === undefined
    ? { error: response.networkError ?? (response.timedOut ? 'timed out' : 'no response') }
    : { status: response.status, contentType: response.contentType, body: response.messages.length ? response.messages : (response.text ?? '') }
  return [
    { dir: 'client→server', http: { method: probe.request.method, headers: probe.request.headers }, message: probe.request.body ?? null },
    { dir: 'server→client', http: reply, message: 'body' in reply ? reply.body : null },
  ]
}

const status = (p: Probe) => p.response.status
const ok = (p: Probe) => (status(p) ?? 0) >= 200 && (status(p) ?? 0) < 300
const described = (p: Probe) => (status(p) === undefined ? (p.response.timedOut ? 'no response (timed out)' : `no response (${p.response.networkError ?? 'unknown'})`) : `HTTP ${status(p)}`)

export function judgeHttp(obs: HttpObservation): CheckResult[] {
  const v = obs.version
  return [
    judgePostResponses(obs),
    judgeNotification(obs),
    judgeSessionId(obs),
    judgeSessionRequired(obs),
    judgeUnknownSession(obs),
    judgeVersionHeader(obs.versionHeader, v),
    judgeInvalidVersionHeader(obs.invalidVersionHeader, v),
    judgeBatch(obs.batch, v),
    judgeOrigin(obs.foreignOrigin, v),
    judgeDelete(obs),
  ]
}

function judgePostResponses(obs: HttpObservation): CheckResult {
  const id = 'http/post-response-type'
  const title = 'requests are answered as application/json or text/event-stream'
  const answered = obs.posts.filter((p) => p.kind === 'request' && p.status !== undefined && p.status < 300)
  const bad = answered.filter((p) => !/^(application\/json|text\/event-stream)\b/i.test(p.contentType ?? ''))
  const evidence = { spec: spec(obs.version, 'transports#sending-messages-to-the-server'), details: { posts: obs.posts } }
  if (answered.length === 0) return verdict(id, title, 'fail', 'Not testable: no request was answered with a 2xx status', evidence)
  if (bad.length) return verdict(id, title, 'fail', `wrong Content-Type for ${list(bad.map((p) => `${p.method} (${p.contentType ?? 'none'})`))}`, evidence)
  const types = [...new Set(answered.map((p) => (p.contentType ?? '').split(';')[0]))]
  return verdict(id, title, 'pass', `${answered.length} requests answered as ${types.join(' / ')}`, evidence)
}

function judgeNotification(obs: HttpObservation): CheckResult {
  const id = 'http/notification-accepted'
  const title = 'an accepted notification gets 202 Accepted with no body'
  const { http, wire } = obs.initialized
  const evidence = { spec: spec(obs.version, 'transports#sending-messages-to-the-server'), wire }
  if (http?.status === 202) return verdict(id, title, 'pass', 'notifications/initialized → 202', evidence)
  return verdict(id, title, 'fail', `notifications/initialized got ${http?.status === undefined ? obs.initialized.reason ?? 'no response' : `HTTP ${http.status}`}`, evidence)
}

function judgeSessionId(obs: HttpObservation): CheckResult {
  const id = 'http/session-id'
  const title = 'a session id, when issued, is visible ASCII and honoured'
  const evidence = { spec: spec(obs.version, 'transports#session-management') }
  if (obs.sessionId === null) return verdict(id, title, 'skip', 'the server issued no Mcp-Session-Id (sessions are optional)', evidence)
  if (!/^[\x21-\x7e]+$/.test(obs.sessionId)) return verdict(id, title, 'fail', 'Mcp-Session-Id contains characters outside 0x21–0x7E', evidence)
  const served = obs.versionHeader && ok(obs.versionHeader)
  if (!served) return verdict(id, title, 'fail', 'a request carrying the issued session id was not served', { ...evidence, ...(obs.versionHeader ? { wire: probeWire(obs.versionHeader) } : {}) })
  return verdict(id, title, 'pass', `issued a ${obs.sessionId.length}-character session id and served requests that carry it`, evidence)
}

function judgeSessionRequired(obs: HttpObservation): CheckResult {
  const id = 'http/session-required'
  const title = 'a request without the issued session id gets 400'
  const ref = spec(obs.version, 'transports#session-management')
  const probe = obs.noSession
  if (obs.sessionId === null || !probe) return verdict(id, title, 'skip', 'the server issued no session id', { spec: ref })
  const evidence = { spec: ref, wire: probeWire(probe) }
  if (status(probe) === 400) return verdict(id, title, 'pass', 'HTTP 400 without Mcp-Session-Id', evidence)
  if (ok(probe)) return verdict(id, title, 'skip', 'the server answers without a session id: it issues one but does not require it', evidence)
  return verdict(id, title, 'warn', `${described(probe)} without Mcp-Session-Id; servers that require a session should answer 400`, evidence)
}

function judgeUnknownSession(obs: HttpObservation): CheckResult {
  const id = 'http/session-unknown'
  const title = 'a request with an unknown session id gets 404'
  const ref = spec(obs.version, 'transports#session-management')
  const probe = obs.unknownSession
  if (obs.sessionId === null || !probe) return verdict(id, title, 'skip', 'the server issued no session id', { spec: ref })
  const evidence = { spec: ref, wire: probeWire(probe) }
  if (status(probe) === 404) return verdict(id, title, 'pass', 'HTTP 404 for a session id the server never issued', evidence)
  // 404 is the only status that tells a client to start a new session.
  return verdict(id, title, 'warn', `${described(probe)} for a session id the server never issued; only 404 makes a client re-initialize`, evidence)
}

function judgeVersionHeader(probe: Probe | undefined, v: string): CheckResult {
  const id = 'http/protocol-version-header'
  const title = 'the negotiated MCP-Protocol-Version header is accepted'
  if (!atLeast(v, '2025-06-18')) return verdict(id, title, 'skip', `the header arrived in 2025-06-18; negotiated ${v}`)
  const evidence = { spec: spec(v, 'transports#protocol-version-header'), ...(probe ? { wire: probeWire(probe) } : {}) }
  if (!probe) return verdict(id, title, 'fail', 'Not testable: the probe did not run', evidence)
  if (ok(probe) && probe.response.messages.some((m) => isObject(m) && 'result' in m)) return verdict(id, title, 'pass', `ping with MCP-Protocol-Version: ${v} answered`, evidence)
  return verdict(id, title, 'fail', `ping with MCP-Protocol-Version: ${v} got ${described(probe)}`, evidence)
}

function judgeInvalidVersionHeader(probe: Probe | undefined, v: string): CheckResult {
  const id = 'http/protocol-version-invalid'
  const title = 'an unsupported MCP-Protocol-Version header gets 400'
  if (!atLeast(v, '2025-06-18')) return verdict(id, title, 'skip', `the header arrived in 2025-06-18; negotiated ${v}`)
  const evidence = { spec: spec(v, 'transports#protocol-version-header'), ...(probe ? { wire: probeWire(probe) } : {}) }
  if (!probe) return verdict(id, title, 'fail', 'Not testable: the probe did not run', evidence)
  if (status(probe) === 400) return verdict(id, title, 'pass', 'HTTP 400', evidence)
  if (ok(probe)) return verdict(id, title, 'fail', 'a request with MCP-Protocol-Version: 1999-01-01 was served', evidence)
  return verdict(id, title, 'warn', `rejected with ${described(probe)}; the spec names 400`, evidence)
}

function judgeBatch(probe: Probe | undefined, v: string): CheckResult {
  const id = 'http/batch-rejected'
  const title = 'JSON-RPC batches are rejected'
  if (!atLeast(v, '2025-06-18')) return verdict(id, title, 'skip', `batches are part of ${v}; 2025-06-18 removed them`)
  const evidence = { spec: spec(v, 'transports#sending-messages-to-the-server'), ...(probe ? { wire: probeWire(probe) } : {}) }
  if (!probe) return verdict(id, title, 'fail', 'Not testable: the probe did not run', evidence)
  const messages = probe.response.messages.flatMap((m) => (Array.isArray(m) ? m : [m]))
  const served = messages.some((m) => isObject(m) && 'result' in m)
  if (!ok(probe) && status(probe) !== undefined) return verdict(id, title, 'pass', `${described(probe)} for a batch`, evidence)
  if (!served && status(probe) !== undefined) return verdict(id, title, 'pass', 'answered the batch with JSON-RPC errors only', evidence)
  if (status(probe) === undefined) return verdict(id, title, 'fail', `a batch got ${described(probe)}`, evidence)
  // A POST body must be a single message from 2025-06-18; serving batches ignores the negotiated revision.
  return verdict(id, title, 'warn', `processed a batch of two pings although ${v} has no batching`, evidence)
}

function judgeOrigin(probe: Probe | undefined, v: string): CheckResult {
  const id = 'http/origin-rejected'
  const title = 'a request from a foreign Origin gets 403 (DNS-rebinding protection)'
  const evidence = { spec: spec(v, 'transports#security-warning'), ...(probe ? { wire: probeWire(probe) } : {}) }
  if (!probe) return verdict(id, title, 'fail', 'Not testable: the probe did not run', evidence)
  if (status(probe) === 403) return verdict(id, title, 'pass', 'HTTP 403 for Origin: http://evil.example', evidence)
  // The kit cannot know the server's allow-list (or whether auth stands in front), so this stays a warning.
  if (ok(probe)) return verdict(id, title, 'warn', 'served a request from Origin: http://evil.example; servers must validate Origin and answer 403', evidence)
  return verdict(id, title, 'warn', `rejected Origin: http://evil.example with ${described(probe)}; the spec names 403`, evidence)
}

function judgeDelete(obs: HttpObservation): CheckResult {
  const id = 'http/session-delete'
  const title = 'DELETE ends the session; reusing it gets 404'
  const ref = spec(obs.version, 'transports#session-management')
  if (obs.sessionId === null || !obs.deleted) return verdict(id, title, 'skip', 'the server issued no session id', { spec: ref })
  const { del, after } = obs.deleted
  const wire = [...probeWire(del), ...(after ? probeWire(after) : [])]
  const evidence = { spec: ref, wire }
  if (status(del) === 405) return verdict(id, title, 'skip', 'DELETE → 405: the server does not let clients end sessions (allowed)', evidence)
  if (!ok(del)) return verdict(id, title, 'warn', `DELETE got ${described(del)}`, evidence)
  if (!after) return verdict(id, title, 'fail', 'Not testable: no request followed the DELETE', evidence)
  if (status(after) === 404) return verdict(id, title, 'pass', `DELETE → ${status(del)}, then HTTP 404 for the ended session`, evidence)
  return verdict(id, title, 'fail', `after DELETE → ${status(del)}, a request with the ended session got ${described(after)}; it must get 404`, evidence)
}
