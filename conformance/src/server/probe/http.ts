/**
 * Raw HTTP probes against an initialised session: each sends one thing a well-behaved client
 * never would. The DELETE probe ends the session, so it runs last.
 */
import { judgeHttp, type HttpObservation, type Probe } from '../evaluate/http.ts'
import type { CheckResult } from '../../model.ts'
import { exchange } from '../wire/http-post.ts'
import type { HttpWire } from '../wire/http.ts'
import { needsResume, resume } from '../wire/resume.ts'
import type { Listener } from './listen.ts'
import type { NotifyOutcome } from '../wire/types.ts'

const FOREIGN_ORIGIN = 'http://evil.example'
const BOGUS_SESSION = 'mcp-conformance-unknown-session'

async function send(wire: HttpWire, overrides: Record<string, string | null>, body: unknown, timeoutMs: number, responses = 1): Promise<Probe> {
  const headers = wire.headers(overrides)
  let seen = 0
  // A streamed answer is read until it holds as many messages as were asked for.
  const until = () => ++seen >= responses
  const deadline = Date.now() + timeoutMs
  const response = await exchange(wire.target.url, { headers, body: JSON.stringify(body), timeoutMs, until })
  // A server that polls closes the stream after priming: the probe resumes it like any request.
  if (needsResume(response, seen >= responses)) {
    const resumed = await resume(response, { url: wire.target.url, headers: (o) => wire.headers({ ...overrides, ...o }), deadline, isResponse: isAnswer, onMessage: () => {} })
    response.messages.push(...resumed.messages)
  }
  return { request: { method: 'POST', headers: visible(headers), body }, response }
}

const isAnswer = (m: unknown) => typeof m === 'object' && m !== null && ('result' in m || 'error' in m)

/** Only the headers a probe is about; user headers may carry credentials and stay out of reports. */
function visible(headers: Record<string, string>): Record<string, string> {
  const keep = ['mcp-session-id', 'mcp-protocol-version', 'origin', 'content-type', 'accept']
  return Object.fromEntries(Object.entries(headers).filter(([key]) => keep.includes(key)))
}

/** GET for the server's own stream: only its headers matter, so the stream is closed once they arrive. */
async function openGet(wire: HttpWire, timeoutMs: number): Promise<Probe> {
  const headers = wire.headers({ accept: 'text/event-stream', 'content-type': null })
  const response = await exchange(wire.target.url, { method: 'GET', headers, timeoutMs, streamHeadersOnly: true })
  return { request: { method: 'GET', headers: visible(headers) }, response }
}

/** `listener`: the session's GET stream, held open while the kit made its calls (./listen.ts). */
export async function probeHttp(wire: HttpWire, version: string, initialized: NotifyOutcome, timeoutMs: number, listener?: Listener): Promise<CheckResult[]> {
  // Closed first: the transport probes below must not find it open, and it judges only what came during the calls.
  const listened = listener ? await listener.stop() : undefined
  let probes = 0
  const ping = () => ({ jsonrpc: '2.0', id: `mcp-conformance-probe-${++probes}`, method: 'ping' })
  // Before any probe (the DELETE ends streams too): whether each stream ended after its response.
  await wire.streamsEnded()
  const obs: HttpObservation = { version, sessionId: wire.sessionId, posts: wire.posts, initialized, streamEndMs: timeoutMs, eventIds: { seen: wire.eventIdsSeen, reuses: wire.eventIdReuses, reuseCount: wire.eventIdReuseCount }, streams: wire.streams }
  obs.versionHeader = await send(wire, {}, ping(), timeoutMs)
  obs.invalidVersionHeader = await send(wire, { 'mcp-protocol-version': '1999-01-01' }, ping(), timeoutMs)
  obs.batch = await send(wire, {}, [ping(), ping()], timeoutMs, 2)
  obs.foreignOrigin = await send(wire, { origin: FOREIGN_ORIGIN }, ping(), timeoutMs)
  obs.getStream = listened ?? (await openGet(wire, timeoutMs))
  if (wire.sessionId !== null) {
    obs.noSession = await send(wire, { 'mcp-session-id': null }, ping(), timeoutMs)
    obs.unknownSession = await send(wire, { 'mcp-session-id': BOGUS_SESSION }, ping(), timeoutMs)
    const headers = visible(wire.headers())
    const response = await wire.terminate()
    if (response) {
      const del: Probe = { request: { method: 'DELETE', headers }, response }
      const ended = response.status !== undefined && response.status < 300
      // Reusing the ended session on purpose: the server must now answer 404.
      obs.deleted = { del, ...(ended ? { after: await send(wire, { 'mcp-session-id': obs.sessionId }, ping(), timeoutMs) } : {}) }
    }
  }
  return judgeHttp(obs)
}
