/** Pure verdicts on the Streamable HTTP transport, from raw exchanges the probe recorded. */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show } from '../check.ts'
import {
  BATCH,
  GET_STREAM,
  NOTIFICATION_ACCEPTED,
  REPLY_ACCEPTED,
  ORIGIN,
  POST_RESPONSE_TYPE,
  SESSION_DELETE,
  SESSION_ID,
  SESSION_REQUIRED,
  SESSION_UNKNOWN,
  SSE_PRIMING,
  SSE_RESUMPTION,
  VERSION_HEADER,
  VERSION_HEADER_INVALID,
} from '../registry/transports.ts'
import { atLeast } from '../spec.ts'
import { judgeGetNoResponse } from './get-listen.ts'
import { judgeSseEnd } from './sse-end.ts'
import { judgeSseEventIds, type EventIds } from './sse-ids.ts'
import { judgeBroadcast, judgeReplay } from './stream-crossings.ts'
import { ruleFor } from '../registry/types.ts'
import type { HttpResponseInfo } from '../wire/http-post.ts'
import type { PostRecord } from '../wire/http.ts'
import type { StreamMessages } from '../wire/stream-messages.ts'
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
  getStream?: Probe
  /** DELETE of the session, then a request that reuses it. */
  deleted?: { del: Probe; after?: Probe }
  /** How long the wire read on after each response for its stream to end (the request timeout). */
  streamEndMs: number
  /** The event ids of the session's request streams; absent, nothing is judged. */
  eventIds?: EventIds
  /** Server messages across the session's request streams and their resumptions. */
  streams?: StreamMessages
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
/** Served: a 2xx status, and the body (an event stream, say) ended before the timeout. */
const ok = (p: Probe) => (status(p) ?? 0) >= 200 && (status(p) ?? 0) < 300 && !p.response.timedOut
const described = (p: Probe) => {
  if (status(p) === undefined) return p.response.timedOut ? 'no response (timed out)' : `no response (${p.response.networkError ?? 'unknown'})`
  return p.response.timedOut ? `HTTP ${status(p)}, then no JSON-RPC response before the timeout` : `HTTP ${status(p)}`
}
/** Streamable HTTP arrived in 2025-03-26; a server that negotiates an older revision over it is judged by 2025-03-26. */
const transportRevision = (v: string) => (atLeast(v, '2025-03-26') ? v : '2025-03-26')

/**
 * A missing probe or answer below is "not testable" with no other check to point at (the probes
 * always run once initialize worked), so such a check reports it itself, at its own keyword.
 */
export function judgeHttp(obs: HttpObservation): CheckResult[] {
  const v = transportRevision(obs.version)
  return [
    judgePostResponses(obs, v),
    judgeNotification(obs, v),
    judgeReplies(obs, v),
    judgeSessionId(obs, v),
    judgeSessionRequired(obs, v),
    judgeUnknownSession(obs, v),
    judgeVersionHeader(obs.versionHeader, v),
    judgeInvalidVersionHeader(obs.invalidVersionHeader, v),
    judgePriming(obs, v),
    judgeResumption(obs, v),
    judgeSseEnd(obs.posts, v, obs.streamEndMs),
    judgeSseEventIds(obs.eventIds ?? { seen: 0, reuses: [], reuseCount: 0 }, v),
    judgeReplay(obs.streams, v),
    judgeBroadcast(obs.streams, obs.getStream, v),
    judgeBatch(obs.batch, v),
    judgeOrigin(obs.foreignOrigin, v),
    judgeGetStream(obs.getStream, v),
    judgeGetNoResponse(obs.getStream, v),
    judgeDelete(obs, v),
  ]
}

function judgePostResponses(obs: HttpObservation, v: string): CheckResult {
  const j = judge(POST_RESPONSE_TYPE, v)
  const answered = obs.posts.filter((p) => p.kind === 'request' && p.status !== undefined && p.status < 300)
  const bad = answered.filter((p) => !/^(application\/json|text\/event-stream)\b/i.test(p.contentType ?? ''))
  const details = { posts: obs.posts }
  if (answered.length === 0) return j.notTestable(undefined, 'no request was answered with a 2xx status', { details })
  if (bad.length) return j.breach(`wrong Content-Type for ${list(bad.map((p) => `${p.method} (${p.contentType ?? 'none'})`))}`, { details })
  const types = [...new Set(answered.map((p) => (p.contentType ?? '').split(';')[0]))]
  return j.pass(`${answered.length} requests answered as ${types.join(' / ')}`, { details })
}

/** 2025-03-26 on, transports: the alternative to the 202 sentence, for input the server cannot accept. */
const REFUSAL = 'If the server cannot accept the input, it MUST return an HTTP error status code (e.g., 400 Bad Request).'

/** The answers to the responses the kit POSTed back: input the server accepts gets 202 and no body. */
function judgeReplies(obs: HttpObservation, v: string): CheckResult {
  const j = judge(REPLY_ACCEPTED, v)
  const replies = obs.posts.filter((p) => p.kind === 'response')
  const details = { replies }
  if (replies.length === 0) return j.skip('the server sent no request, so the kit POSTed no response to judge')
  const wrong = replies.filter((p) => p.status === undefined || (p.status < 400 && (p.status !== 202 || p.body)))
  const what = (p: PostRecord) => (p.status === undefined ? 'no HTTP answer' : p.status === 202 ? '202 with a body' : `HTTP ${p.status}`)
  if (wrong.length) return j.breach(`${count(wrong.length, 'response')} the kit POSTed back got ${list(wrong.map(what))}, not 202 Accepted with no body`, { details })
  const refused = replies.filter((p) => p.status !== undefined && p.status >= 400)
  if (refused.length) return j.info(`${count(refused.length, 'response')} the kit POSTed back ${refused.length === 1 ? 'was' : 'were'} refused with ${list(refused.map(what))}; the spec allows a refusal: "${REFUSAL}"`, { details })
  return j.pass(`${count(replies.length, 'response')} the kit POSTed back, each answered 202 with no body`, { details })
}

function judgeNotification(obs: HttpObservation, v: string): CheckResult {
  const j = judge(NOTIFICATION_ACCEPTED, v)
  const { http, wire } = obs.initialized
  const body = wire.filter((w) => w.dir === 'server→client' && w.message !== null && w.message !== '')
  if (http?.status === 202 && body.length === 0) return j.pass('notifications/initialized → 202 with an empty body', { wire })
  if (http?.status === 202) return j.breach('notifications/initialized → 202, but with a body', { wire })
  // The 202 sentence is conditional on the server accepting the input; a refusal with an HTTP error status is what the same list asks for.
  if (http?.status !== undefined && http.status >= 400 && http.status < 600) {
    return j.info(
      `notifications/initialized was refused with HTTP ${http.status}. The spec allows a refusal: "${REFUSAL}" So the 202 rule does not apply; but every client sends this notification after initialize, and one that treats the refusal as an error (the TypeScript SDK's transport throws on it) cannot connect`,
      { wire },
    )
  }
  return j.breach(`notifications/initialized got ${http?.status === undefined ? (obs.initialized.reason ?? 'no response') : `HTTP ${http.status}`}, not 202 Accepted`, { wire })
}

function judgeSessionId(obs: HttpObservation, v: string): CheckResult {
  const j = judge(SESSION_ID, v)
  if (obs.sessionId === null) return j.skip('the server issued no Mcp-Session-Id (sessions are optional)')
  // The sentence is about the characters only; whether requests carrying it are served is for the checks that send them.
  if (!/^[\x21-\x7e]+$/.test(obs.sessionId)) return j.breach(`Mcp-Session-Id ${show(obs.sessionId, 80)} contains characters outside 0x21–0x7E`)
  return j.pass(`issued a ${obs.sessionId.length}-character session id, all visible ASCII (0x21–0x7E)`)
}

function judgeSessionRequired(obs: HttpObservation, v: string): CheckResult {
  const j = judge(SESSION_REQUIRED, v)
  const probe = obs.noSession
  if (obs.sessionId === null || !probe) return j.skip('the server issued no session id')
  const wire = probeWire(probe)
  if (status(probe) === 400) return j.pass('HTTP 400 without Mcp-Session-Id', { wire })
  if (ok(probe)) return j.skip('the server answers without a session id: it issues one but does not require it', { wire })
  return j.breach(`${described(probe)} without Mcp-Session-Id; servers that require a session should answer 400`, { wire })
}

function judgeUnknownSession(obs: HttpObservation, v: string): CheckResult {
  const j = judge(SESSION_UNKNOWN, v)
  const probe = obs.unknownSession
  if (obs.sessionId === null || !probe) return j.skip('the server issued no session id')
  const wire = probeWire(probe)
  if (status(probe) === 404) return j.pass('HTTP 404 for a session id the server never issued', { wire })
  return j.breach(`${described(probe)} for a session id the server never issued; only 404 makes a client start a new session`, { wire })
}

function judgeVersionHeader(probe: Probe | undefined, v: string): CheckResult {
  const j = judge(VERSION_HEADER, v)
  if (!j.applies) return j.notInRevision()
  if (!probe) return j.notTestable(undefined, 'the probe did not run')
  const wire = probeWire(probe)
  if (ok(probe) && probe.response.messages.some((m) => isObject(m) && 'result' in m)) return j.pass(`ping with MCP-Protocol-Version: ${v} answered`, { wire })
  // The header was accepted (2xx); that the stream then carried no response is not about the header (lifecycle/ping and the stream checks see it).
  if (probe.response.timedOut && (status(probe) ?? 0) >= 200 && (status(probe) ?? 0) < 300) return j.skip(`ping with MCP-Protocol-Version: ${v} got ${described(probe)}: the header was accepted, and whether the version was respected cannot be told (the unanswered request is the stream's fault, not the header's)`, { wire })
  return j.breach(`ping with MCP-Protocol-Version: ${v} got ${described(probe)}`, { wire })
}

function judgeInvalidVersionHeader(probe: Probe | undefined, v: string): CheckResult {
  const j = judge(VERSION_HEADER_INVALID, v)
  if (!j.applies) return j.notInRevision()
  if (!probe) return j.notTestable(undefined, 'the probe did not run')
  const wire = probeWire(probe)
  if (status(probe) === 400) return j.pass('HTTP 400 for MCP-Protocol-Version: 1999-01-01', { wire })
  if (ok(probe)) return j.breach('a request with MCP-Protocol-Version: 1999-01-01 was served', { wire })
  return j.breach(`MCP-Protocol-Version: 1999-01-01 got ${described(probe)}, not 400 Bad Request`, { wire })
}

function judgePriming(obs: HttpObservation, v: string): CheckResult {
  const j = judge(SSE_PRIMING, v)
  if (!j.applies) return j.notInRevision()
  const streamed = obs.posts.filter((p) => p.kind === 'request' && p.stream)
  if (streamed.length === 0) return j.skip('no request was answered with an event stream')
  const unprimed = streamed.filter((p) => !p.stream?.primed)
  const details = { streams: streamed.map((p) => ({ method: p.method, primed: p.stream?.primed })) }
  if (unprimed.length) return j.breach(`${unprimed.length} of ${streamed.length} event streams did not open with an event id and empty data: ${list([...new Set(unprimed.map((p) => p.method))], 4)}`, { details })
  return j.pass(`all ${streamed.length} event streams opened with a priming event`, { details })
}

function judgeResumption(obs: HttpObservation, v: string): CheckResult {
  const j = judge(SSE_RESUMPTION, v)
  // A stream that never carried its response, with nothing the kit could resume: the sentence every revision with streams has.
  const unanswered = obs.posts.filter((p) => p.kind === 'request' && p.stream && !p.stream.answered && !p.stream.resumption)
  const before = ruleFor(SSE_RESUMPTION, v, 'unanswered') !== undefined
  if (!j.applies && !(before && unanswered.length)) return j.notInRevision()
  const closed = obs.posts.filter((p) => p.stream?.resumption)
  const details = {
    resumed: closed.map((p) => ({ method: p.method, ...p.stream?.resumption })),
    ...(unanswered.length ? { unanswered: unanswered.map((p) => ({ method: p.method, status: p.status, primed: p.stream?.primed, timedOut: p.stream?.timedOut ?? false })) } : {}),
  }
  const lost = closed.filter((p) => !p.stream?.resumption?.answered)
  if (lost.length) return j.breach(`the response never arrived after resuming the stream of ${list([...new Set(lost.map((p) => p.method))], 4)} with Last-Event-ID`, { details })
  if (unanswered.length) {
    const open = unanswered.filter((p) => p.stream?.timedOut)
    const ended = unanswered.filter((p) => !p.stream?.timedOut)
    const parts = [
      ...(open.length ? [`the event stream of ${list([...new Set(open.map((p) => p.method))], 4)} stayed open without the JSON-RPC response until the kit's request timeout`] : []),
      ...(ended.length ? [`the event stream of ${list([...new Set(ended.map((p) => p.method))], 4)} ended without the JSON-RPC response, leaving nothing to resume`] : []),
    ]
    return j.breach(`${parts.join('; ')} (${unanswered.length} of ${obs.posts.filter((p) => p.kind === 'request' && p.stream).length} event streams)`, { details }, before ? 'unanswered' : undefined)
  }
  if (closed.length === 0) return j.skip('no event stream was closed before its response; the polling model was not used', { details })
  const noRetry = closed.filter((p) => p.stream?.resumption?.retryMs === undefined)
  if (noRetry.length) return j.breach(`${list([...new Set(noRetry.map((p) => p.method))], 4)}: the stream was closed before the response without a retry field`, { details }, 'retry')
  const attempts = closed.reduce((n, p) => n + (p.stream?.resumption?.attempts ?? 0), 0)
  return j.pass(`${closed.length} streams closed before their response; resumed with Last-Event-ID after the server's retry (${attempts} reconnections) and answered`, { details })
}

function judgeBatch(probe: Probe | undefined, v: string): CheckResult {
  const j = judge(BATCH, v)
  if (!j.applies) return j.notInRevision()
  if (!probe) return j.notTestable(undefined, 'the probe did not run')
  const wire = probeWire(probe)
  const messages = probe.response.messages.flatMap((m) => (Array.isArray(m) ? m : [m]))
  const served = ok(probe) && messages.filter((m) => isObject(m) && 'result' in m).length === 2
  const how = status(probe) === undefined || !ok(probe) ? described(probe) : 'a 2xx answer without two ping results'
  // From 2025-06-18 only the client is bound (a POST carries one message): either answer is information.
  if (atLeast(v, '2025-06-18')) return j.info(served ? `the server still processes batches (${v} has none)` : `a batch got ${how} (${v} has no batches)`, { wire })
  if (served) return j.pass('processed a batch of two pings and answered both', { wire })
  return j.breach(`a batch of two pings got ${how}`, { wire })
}

function judgeOrigin(probe: Probe | undefined, v: string): CheckResult {
  const j = judge(ORIGIN, v)
  if (!probe) return j.notTestable(undefined, 'the probe did not run')
  const wire = probeWire(probe)
  if (status(probe) === 403) return j.pass('HTTP 403 for Origin: http://evil.example', { wire })
  if (ok(probe)) return j.breach('served a request from Origin: http://evil.example, which a DNS-rebinding page would send', { wire })
  if (status(probe) === undefined) return j.breach(`a request from Origin: http://evil.example got ${described(probe)}`, { wire })
  // Before 2025-11-25 the spec asks for validation but names no status: any refusal is one.
  if (!atLeast(v, '2025-11-25')) return j.pass(`refused Origin: http://evil.example with ${described(probe)}`, { wire })
  return j.breach(`refused Origin: http://evil.example with ${described(probe)}, not 403 Forbidden`, { wire })
}

function judgeGetStream(probe: Probe | undefined, v: string): CheckResult {
  const j = judge(GET_STREAM, v)
  if (!probe) return j.notTestable(undefined, 'the probe did not run')
  const wire = probeWire(probe)
  if (status(probe) === 405) return j.pass('GET → 405: the server offers no stream at this endpoint', { wire })
  const type = probe.response.contentType ?? ''
  if (ok(probe) && /^text\/event-stream\b/i.test(type)) return j.pass(`GET → ${status(probe)} text/event-stream`, { wire })
  return j.breach(`GET got ${described(probe)}${status(probe) !== undefined ? ` (${type || 'no Content-Type'})` : ''}, neither an event stream nor 405`, { wire })
}

function judgeDelete(obs: HttpObservation, v: string): CheckResult {
  const j = judge(SESSION_DELETE, v)
  if (obs.sessionId === null || !obs.deleted) return j.skip('the server issued no session id')
  const { del, after } = obs.deleted
  const wire = [...probeWire(del), ...(after ? probeWire(after) : [])]
  if (status(del) === 405) return j.skip('DELETE → 405: the server does not let clients end sessions (allowed)', { wire })
  if (!ok(del)) return j.breach(`DELETE got ${described(del)}; the session may still be open`, { wire }, 'refused')
  if (!after) return j.notTestable(undefined, 'no request followed the DELETE', { wire })
  if (status(after) === 404) return j.pass(`DELETE → ${status(del)}, then HTTP 404 for the ended session`, { wire })
  return j.breach(`after DELETE → ${status(del)}, a request with the ended session got ${described(after)}; it must get 404`, { wire })
}
