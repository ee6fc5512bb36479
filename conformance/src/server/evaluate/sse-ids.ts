/** Pure verdict on the SSE event ids of a session's request streams (wire/http.ts keeps them). */
import type { CheckResult } from '../../model.ts'
import { count, judge, show } from '../check.ts'
import { SSE_EVENT_IDS } from '../registry/transports.ts'
import type { EventIdReuse } from '../wire/http.ts'

export interface EventIds {
  /** Distinct ids the session's request streams carried. */
  seen: number
  reuses: readonly EventIdReuse[]
  reuseCount: number
}

export function judgeSseEventIds(ids: EventIds, version: string): CheckResult {
  const j = judge(SSE_EVENT_IDS, version)
  if (!j.applies) return j.notInRevision()
  if (ids.reuseCount > 0) {
    const first = ids.reuses[0]!
    return j.breach(`an event id of one request's stream came again on another request's stream ${count(ids.reuseCount, 'time')}; first ${show(first.id, 60)}, on the streams of ${first.first} and of ${first.second}`, { details: { reuses: ids.reuses } })
  }
  if (ids.seen === 0) return j.skip('the server attached no id to the events of its streams; nothing to judge')
  return j.pass(`${count(ids.seen, 'event id')} across the session's request streams, none on two of them`)
}
