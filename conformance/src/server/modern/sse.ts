/** Pure verdicts on the event streams that answered the modern run's POSTs (./sse-rules.ts). */
import type { CheckResult } from '../../model.ts'
import { list } from '../check.ts'
import { describeOpen, streamEnds } from '../evaluate/sse-end.ts'
import type { ModernRevision } from '../spec.ts'
import type { PostRecord } from '../wire/http.ts'
import { modernJudge } from './judge.ts'
import { MODERN_ACCEL_BUFFERING, MODERN_SSE_END } from './sse-rules.ts'

const STREAM = /^text\/event-stream\b/i

/** `boundMs`: how long the kit read on after each response (the run's request timeout). */
export function judgeModernSse(posts: readonly PostRecord[], revision: ModernRevision, boundMs: number): CheckResult[] {
  return [judgeEnd(posts, revision, boundMs), judgeAccelBuffering(posts, revision)]
}

function judgeEnd(posts: readonly PostRecord[], revision: ModernRevision, boundMs: number): CheckResult {
  const j = modernJudge(MODERN_SSE_END, revision)
  const ends = streamEnds(posts)
  const details = { streams: ends.watched.map((p) => ({ method: p.method, ended: p.stream?.endedAfterResponse })) }
  if (ends.watched.length === 0) return j.skip('no request was answered on an event stream of its own; nothing to judge')
  if (ends.open.length) return j.breach(describeOpen(ends, boundMs), { details })
  return j.pass(`all ${ends.watched.length} event streams ended after the response they carried`, { details })
}

function judgeAccelBuffering(posts: readonly PostRecord[], revision: ModernRevision): CheckResult {
  const j = modernJudge(MODERN_ACCEL_BUFFERING, revision)
  const streams = posts.filter((p) => STREAM.test(p.contentType ?? ''))
  if (streams.length === 0) return j.skip('no POST was answered with an event stream; nothing to judge')
  const without = streams.filter((p) => p.accelBuffering?.trim().toLowerCase() !== 'no')
  const details = { streams: streams.map((p) => ({ method: p.method, accelBuffering: p.accelBuffering ?? null })) }
  if (without.length) {
    const values = [...new Set(without.map((p) => (p.accelBuffering === undefined ? 'no such header' : JSON.stringify(p.accelBuffering))))]
    return j.breach(`${without.length} of ${streams.length} event streams came without X-Accel-Buffering: no (${list(values, 3)}), for ${list([...new Set(without.map((p) => p.method))], 4)}`, { details })
  }
  return j.pass(`all ${streams.length} event streams came with X-Accel-Buffering: no`, { details })
}
