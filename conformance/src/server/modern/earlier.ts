/**
 * Traffic of an earlier Streamable HTTP revision sent to a modern-only server (./earlier-rules.ts),
 * each exchange bounded by the run's request timeout; the verdict is pure.
 */
import { startDeadline } from '@mcp-bridge/process'
import type { CheckResult } from '../../model.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import type { HttpWire } from '../wire/http.ts'
import { EARLIER_TRAFFIC } from './earlier-rules.ts'
import { modernJudge } from './judge.ts'
import { meta, variant } from './request-meta.ts'

const STALE_SESSION = 'mcp-conformance-stale'

export interface EarlierTraffic {
  /** HTTP status of GET and DELETE of the endpoint, or why there was none. */
  get: number | string
  delete: number | string
  session: RpcOutcome
  lastEventId: RpcOutcome
}

async function status(wire: HttpWire, method: 'GET' | 'DELETE', timeoutMs: number): Promise<number | string> {
  const deadline = startDeadline(timeoutMs)
  try {
    const response = await fetch(wire.target.url, { method, headers: wire.headers({ 'content-type': null }), signal: deadline.signal, redirect: 'manual' })
    await response.body?.cancel().catch(() => {})
    return response.status
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  } finally {
    deadline.clear()
  }
}

export async function sendEarlierTraffic(wire: HttpWire, revision: string, timeoutMs: number): Promise<EarlierTraffic> {
  const discover = (headers: Record<string, string>) => variant(wire, revision, headers, timeoutMs).request('server/discover', { _meta: meta(revision) }, timeoutMs)
  return {
    get: await status(wire, 'GET', timeoutMs),
    delete: await status(wire, 'DELETE', timeoutMs),
    session: await discover({ 'mcp-session-id': STALE_SESSION }),
    lastEventId: await discover({ 'last-event-id': '1' }),
  }
}

/** `modernOnly`: the DiscoverResult lists modern revisions only (a dual-era server serves the earlier revision's traffic). */
export function judgeEarlierTraffic(traffic: EarlierTraffic | undefined, modernOnly: boolean): CheckResult {
  const j = modernJudge(EARLIER_TRAFFIC)
  if (!traffic) return j.skip('Not testable: over stdio there is no earlier HTTP traffic')
  if (!modernOnly) return j.skip('Not testable: the server supports an earlier revision too, whose traffic it may serve')
  const wrong = (['get', 'delete'] as const).find((m) => traffic[m] !== 405)
  if (wrong) return j.breach(`${wrong.toUpperCase()} of the endpoint got ${typeof traffic[wrong] === 'number' ? `HTTP ${traffic[wrong]}` : traffic[wrong]}, not 405 Method Not Allowed`)
  const session = traffic.session
  if (session.kind !== 'result') return j.breach(`server/discover with a stale Mcp-Session-Id got ${describeOutcome(session)}: the header was not ignored`, { wire: session.wire }, 'session')
  if (session.http?.sessionId) return j.breach('server/discover with a stale Mcp-Session-Id was answered with an Mcp-Session-Id header: a session id minted or echoed', { wire: session.wire }, 'session')
  if (traffic.lastEventId.kind !== 'result') return j.breach(`server/discover with Last-Event-ID: 1 got ${describeOutcome(traffic.lastEventId)}: the header was not ignored`, { wire: traffic.lastEventId.wire }, 'last-event-id')
  return j.pass('GET and DELETE: 405; a stale Mcp-Session-Id and a Last-Event-ID were ignored, no session id minted or echoed')
}
