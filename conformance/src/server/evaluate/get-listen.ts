/** Pure verdict on what the session's GET stream carried while the kit made its calls (probe/listen.ts). */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show } from '../check.ts'
import { GET_NO_RESPONSE } from '../registry/transports.ts'

/** A JSON-RPC response: no method, and a result or an error. */
const isResponse = (m: unknown) => isObject(m) && !('method' in m) && ('result' in m || 'error' in m)

/** What the GET listener saw (structurally evaluate/http.ts's Probe; named here so neither imports the other). */
type GetStream = { response: { status?: number; contentType?: string | null; messages: unknown[] } }

export function judgeGetNoResponse(probe: GetStream | undefined, v: string): CheckResult {
  const j = judge(GET_NO_RESPONSE, v)
  if (!probe) return j.skip('the GET stream was not opened')
  const { status, contentType, messages } = probe.response
  if (status === undefined || status >= 300 || !/^text\/event-stream\b/i.test(contentType ?? '')) return j.skip(`GET opened no event stream (${status === undefined ? 'no answer' : `HTTP ${status}`}); nothing to judge`)
  const responses = messages.filter(isResponse)
  if (responses.length) {
    const ids = responses.map((m) => show((m as { id?: unknown }).id, 40))
    return j.breach(`the GET stream carried ${count(responses.length, 'JSON-RPC response')} (id ${list(ids, 3)}), though it resumed no request's stream`, { wire: responses.slice(0, 3).map((message) => ({ dir: 'server→client', message })) })
  }
  if (messages.length === 0) return j.skip('nothing arrived on the GET stream while the kit made its calls; nothing to judge')
  return j.pass(`${count(messages.length, 'message')} on the GET stream while the kit made its calls, none a response`)
}
