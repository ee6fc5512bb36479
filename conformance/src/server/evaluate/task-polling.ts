/**
 * Pure verdict of tasks/get-polling: over Streamable HTTP, how the server answered each tasks/get
 * about the tasks the kit created (the Content-Type of its HTTP answer, which the server chooses
 * per request, so no timing enters the verdict).
 */
import type { CheckResult } from '../../model.ts'
import { count, judge, show } from '../check.ts'
import { TASK_GET_POLLING } from '../registry/tasks.ts'
import type { RpcOutcome } from '../wire/types.ts'
import { withoutTask, type TaskObservation } from './tasks.ts'

const EVENT_STREAM = /^text\/event-stream\b/i

function tasksGets(obs: TaskObservation): RpcOutcome[] {
  return [obs.first, obs.second].flatMap((trace) => (trace?.taskId ? [...trace.gets, trace.afterResult, trace.afterCancel] : [])).filter((o): o is RpcOutcome => o !== undefined)
}

export function judgeTaskPolling(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_GET_POLLING, version)
  if (obs.transport !== 'http') return j.skip('over stdio there is no event stream to upgrade to')
  const gets = tasksGets(obs).filter((o) => o.http?.status !== undefined && o.http.status < 300)
  if (gets.length === 0) return withoutTask(j, obs)
  const streamed = gets.filter((o) => EVENT_STREAM.test(o.http?.contentType ?? ''))
  if (streamed.length) {
    return j.breach(`${streamed.length} of ${count(gets.length, 'tasks/get answer')} came with Content-Type ${show(streamed[0]!.http?.contentType, 60)}: an SSE stream for a client that polls`, { wire: streamed[0]!.wire })
  }
  return j.pass(`${count(gets.length, 'tasks/get answer')} with Content-Type ${show(gets[0]!.http?.contentType, 60)}, none upgraded to an SSE stream`)
}
