/** Pure verdict on the HTTP answers to the modern run's POSTs (./post-rules.ts). */
import type { CheckResult } from '../../model.ts'
import { count, list } from '../check.ts'
import type { ModernRevision } from '../spec.ts'
import type { PostRecord } from '../wire/http.ts'
import type { NotifyOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import { MODERN_POSTS } from './post-rules.ts'

const RESPONSE_TYPE = /^(application\/json|text\/event-stream)\b/i

/** Whether the answer to a notification carried a body (a message, or text the kit could not read as one). */
export function hasBody(outcome: NotifyOutcome): boolean {
  return outcome.wire.some((w) => w.dir === 'server→client' && w.message !== null && w.message !== '')
}

export function judgePosts(posts: readonly PostRecord[], notified: readonly { method: string; outcome: NotifyOutcome }[], revision: ModernRevision): CheckResult {
  const j = modernJudge(MODERN_POSTS, revision)
  const answered = posts.filter((p) => p.kind === 'request' && p.status !== undefined && p.status < 300)
  const bad = answered.filter((p) => !RESPONSE_TYPE.test(p.contentType ?? ''))
  if (bad.length) return j.breach(`a 2xx answer to ${list(bad.map((p) => `${p.method} (Content-Type ${p.contentType ?? 'none'})`))} is neither application/json nor text/event-stream`, { details: { posts: bad.slice(0, 10) } })
  for (const { method, outcome } of notified) {
    const status = outcome.http?.status
    if (status !== undefined && status >= 400 && status < 600) continue
    if (status === 202 && !hasBody(outcome)) continue
    const what = status === undefined ? (outcome.reason ?? 'no HTTP answer') : status === 202 ? '202 with a body' : `HTTP ${status}`
    return j.breach(`the notification ${method} got ${what}, not 202 Accepted with no body (nor an HTTP error status)`, { wire: outcome.wire }, status === undefined || status < 200 || status >= 300 ? 'refused' : 'accepted')
  }
  if (answered.length + notified.length === 0) return j.skip('no POST of the modern run was answered; nothing to judge')
  return j.pass(`${count(answered.length, 'request')} answered as ${[...new Set(answered.map((p) => (p.contentType ?? '').split(';')[0]))].join(' / ')}; ${count(notified.length, 'notification')} answered 202 with no body or refused with an error status`)
}
