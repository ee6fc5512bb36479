/**
 * Pure verdict on a task-augmented tools/call sent to a server that does not declare
 * tasks.requests.tools.call: it must be run as a plain call, the task metadata ignored.
 */
import type { CheckResult } from '../../model.ts'
import { isObject, judge, show, unreadable } from '../check.ts'
import { TASK_UNDECLARED } from '../registry/tasks.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

/** The call made, or why none was. */
export type UndeclaredAugmentation = { tool: string; outcome: RpcOutcome } | { none: string }

export function judgeUndeclaredAugmentation(observed: UndeclaredAugmentation, version: string): CheckResult {
  const j = judge(TASK_UNDECLARED, version)
  if ('none' in observed) return j.skip(observed.none)
  const { tool, outcome } = observed
  const wire = outcome.wire
  const what = `a task-augmented tools/call of ${show(tool)}`
  const blocked = unreadable(j, what, outcome)
  if (blocked) return blocked
  if (outcome.kind === 'timeout' || outcome.kind === 'closed' || outcome.kind === 'malformed') return j.info(`${what} got ${describeOutcome(outcome)}; no answer to judge`, { wire })
  if (outcome.kind === 'error') return j.info(`${what} got ${describeOutcome(outcome)}; whether the tool succeeds plainly is tools/call/${tool}’s to judge`, { wire })
  if (isObject(outcome.result) && isObject(outcome.result.task)) {
    return j.breach(`the server does not declare tasks.requests.tools.call, yet ${what} got a CreateTaskResult (task ${show(outcome.result.task.taskId, 60)}), not the plain result`, { wire })
  }
  // No task came back: the call ran as a plain one; what its result holds is tools/call/{name}'s to judge.
  return j.pass(`${what} was run as a plain call: a result without a task`, { wire })
}
