/**
 * Pure verdict of tasks/progress: the notifications/progress that arrived with the answers about
 * the first task the kit created must carry the progressToken its task-augmented call gave. Only
 * tokens are compared, never counts or order: how many notifications a task sends, and when they
 * arrive beside the answers, is the server's scheduling.
 */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show } from '../check.ts'
import { isCallProgressToken } from '../progress-tokens.ts'
import { TASK_PROGRESS } from '../registry/tasks.ts'
import type { RpcOutcome, WireEntry } from '../wire/types.ts'
import { withoutTask, type TaskObservation, type TaskTrace } from './tasks.ts'

/** Every exchange about the task while it could still run or had just ended. */
function exchanges(trace: TaskTrace): RpcOutcome[] {
  return [trace.create, ...trace.gets, trace.result, trace.afterResult].filter((o): o is RpcOutcome => o !== undefined)
}

function progressOf(entry: WireEntry): Record<string, unknown> | undefined {
  const m = entry.message
  if (entry.dir !== 'server→client' || !isObject(m) || m.method !== 'notifications/progress') return undefined
  return isObject(m.params) ? m.params : {}
}

export function judgeTaskProgress(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_PROGRESS, version)
  const trace = obs.first
  if (!trace?.taskId || trace.progressToken === undefined) return withoutTask(j, obs)
  const token = trace.progressToken
  // One notification can be recorded with every request pending when it came: count each once.
  const seen = new Map<string, { params: Record<string, unknown>; wire: WireEntry[] }>()
  for (const outcome of exchanges(trace)) {
    for (const entry of outcome.wire) {
      const params = progressOf(entry)
      // Late progress for one of the kit's plain calls is notifications/progress's to judge, not this sentence's.
      if (params && !isCallProgressToken(params.progressToken)) seen.set(JSON.stringify(params), { params, wire: outcome.wire })
    }
  }
  if (seen.size === 0) return j.skip(`no notifications/progress arrived with the answers about task ${show(trace.taskId, 60)}; nothing to judge`)
  const foreign = [...seen.values()].filter((n) => n.params.progressToken !== token)
  if (foreign.length) {
    const tokens = [...new Set(foreign.map((n) => show(n.params.progressToken, 60)))]
    return j.breach(`${count(foreign.length, 'notifications/progress')} about task ${show(trace.taskId, 60)} carried progressToken ${list(tokens, 3)}, not ${show(token)}, the one its task-augmented tools/call gave`, { wire: foreign[0]!.wire, details: { tokens } })
  }
  return j.pass(`${seen.size} distinct notifications/progress about task ${show(trace.taskId, 60)}, each with the progressToken its task-augmented tools/call gave`)
}
