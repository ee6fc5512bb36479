/**
 * Pure verdicts on capabilities used without being declared: a feature's method that answers
 * although the server never declared the feature.
 */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, unreadable } from '../check.ts'
import type { CheckDef } from '../registry/types.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

/**
 * `items` picks what the result offers (listed tools, completion values). An error is the right
 * answer; a result that offers something means the feature is served undeclared; an empty one
 * cannot tell support from a stub, so it is information; no answer breaks the JSON-RPC reply rule.
 */
export function judgeUndeclared(def: CheckDef, version: string, method: string, capability: string, outcome: RpcOutcome, items: (result: Record<string, unknown>) => unknown[] | undefined): CheckResult {
  const j = judge(def, version)
  if (!j.applies) return j.notInRevision()
  const wire = outcome.wire
  const blocked = unreadable(j, method, outcome)
  if (blocked) return blocked
  if (outcome.kind === 'error') return j.pass(`${method} without the ${capability} capability was refused with ${describeOutcome(outcome)}`, { wire })
  // Refusing is the right answer, but some answer is owed: a request never answered breaks the reply rule, declared or not.
  if (outcome.kind === 'timeout' || outcome.kind === 'closed') return j.breach(`${method} got ${describeOutcome(outcome)}; an undeclared method is refused with an error, never left unanswered`, { wire }, 'reply')
  if (outcome.kind !== 'result' || !isObject(outcome.result)) return j.breach(`${method} was answered with ${outcome.kind === 'result' ? 'a non-object result' : describeOutcome(outcome)} although ${capability} is not declared`, { wire })
  const offered = items(outcome.result)
  if (offered && offered.length > 0) return j.breach(`${method} offered ${count(offered.length, 'item')} although the server does not declare the ${capability} capability`, { wire })
  return j.skip(`${method} was answered with an empty result; the kit cannot tell a stub from support`, { wire })
}
