/**
 * Pure: which event streams the server left open after the response they carried, from what the
 * HTTP wire watched (wire/http.ts). Read by the legacy check and by 2026-07-28's alike.
 */
import type { CheckResult } from '../../model.ts'
import { judge, list } from '../check.ts'
import { SSE_END } from '../registry/transports.ts'
import type { PostRecord } from '../wire/http.ts'

export interface StreamEnds {
  /** Requests whose own stream carried the response and was watched after it. */
  watched: PostRecord[]
  /** Of those, the ones still open when the bound ran out. */
  open: PostRecord[]
}

export function streamEnds(posts: readonly PostRecord[]): StreamEnds {
  const watched = posts.filter((p) => p.kind === 'request' && p.stream?.endedAfterResponse !== undefined)
  return { watched, open: watched.filter((p) => p.stream?.endedAfterResponse === false) }
}

/** `boundMs`: how long the kit read on after each response (the run's request timeout). */
export function describeOpen(ends: StreamEnds, boundMs: number): string {
  return `the event stream of ${list([...new Set(ends.open.map((p) => p.method))], 4)} was still open ${boundMs} ms after the response it carried (${ends.open.length} of ${ends.watched.length} streams)`
}

export function judgeSseEnd(posts: readonly PostRecord[], version: string, boundMs: number): CheckResult {
  const j = judge(SSE_END, version)
  if (!j.applies) return j.notInRevision()
  const ends = streamEnds(posts)
  const details = { streams: ends.watched.map((p) => ({ method: p.method, ended: p.stream?.endedAfterResponse })) }
  if (ends.watched.length === 0) return j.skip('no request was answered on an event stream of its own; nothing to judge')
  if (ends.open.length) return j.breach(describeOpen(ends, boundMs), { details })
  return j.pass(`all ${ends.watched.length} event streams ended after the response they carried`, { details })
}
