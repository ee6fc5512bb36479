/**
 * Pure verdicts on what a server answers to input it cannot know: a log level no revision defines.
 * The sentence asks for -32602 with SHOULD, so any other answer warns.
 */
import type { CheckResult } from '../../model.ts'
import { judge, show, unreadable } from '../check.ts'
import { SET_LEVEL_INVALID } from '../registry/features.ts'
import { ERROR_RESPONSES } from '../registry/messages.ts'
import type { CheckDef } from '../registry/types.ts'
import { UNKNOWN_LEVEL } from '../unknown-inputs.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

const INVALID_PARAMS = -32602

function judgeInvalid(def: CheckDef, version: string, what: string, outcome: RpcOutcome): CheckResult {
  const j = judge(def, version)
  const wire = outcome.wire
  const blocked = unreadable(j, what, outcome)
  if (blocked) return blocked
  if (outcome.kind === 'timeout' || outcome.kind === 'closed') return j.breach(`${what} got ${describeOutcome(outcome)}`, { wire }, 'reply')
  // A code that is no integer is the envelope's breach; which code it meant is not for this check to guess.
  if (outcome.kind === 'error' && !Number.isInteger(outcome.error.code)) return j.notTestable(ERROR_RESPONSES.id, `the error answering ${what} has a code that is not an integer`, { wire })
  if (outcome.kind === 'error' && outcome.error.code === INVALID_PARAMS) return j.pass(`${what} got ${describeOutcome(outcome)}`, { wire })
  const got = outcome.kind === 'result' ? `a result (${show(outcome.result, 100)})` : describeOutcome(outcome)
  return j.breach(`${what} got ${got}, not JSON-RPC error -32602 (Invalid params)`, { wire })
}

export function judgeInvalidLevel(outcome: RpcOutcome, version: string): CheckResult {
  return judgeInvalid(SET_LEVEL_INVALID, version, `logging/setLevel "${UNKNOWN_LEVEL}"`, outcome)
}
