/**
 * Pure: the verdict of modern/tool-call. The legacy --call judges (../evaluate/calls.ts) hold the
 * rules, whose sentences 2026-07-28 repeats word for word; they are run as for the newest
 * initialize-based revision, and each breach is carried over to the modern rule quoting the same
 * sentence, so its status comes from 2026-07-28's keyword. A breach of a legacy-only rule (that
 * revision's result schema, say) is not carried over: other modern checks judge those.
 */
import type { CheckResult } from '../../model.ts'
import { invalidArgumentsFor, judgeInvalidArguments, judgeUserCall } from '../evaluate/calls.ts'
import { isObject, list } from '../check.ts'
import { LATEST_REVISION } from '../spec.ts'
import type { RpcOutcome } from '../wire/types.ts'
import { TOOL_CALL } from './call-rules.ts'
import { modernJudge } from './judge.ts'

/** The legacy revision whose tools rules the modern ones repeat. */
const LEGACY = LATEST_REVISION

export interface ToolCallMade {
  name: string
  /** The tool as tools/list lists it. */
  tool: Record<string, unknown>
  outcome: RpcOutcome
}

export interface InvalidCall extends ToolCallMade {
  /** What about the arguments breaks the inputSchema. */
  why: string
}

/** Arguments that `tool`'s inputSchema rejects, as the legacy check builds them; undefined when there are none. */
export function invalidArguments(tool: Record<string, unknown>): { args: Record<string, unknown>; why: string } | undefined {
  return invalidArgumentsFor(tool, LEGACY)
}

const inputRequired = (outcome: RpcOutcome) => outcome.kind === 'result' && isObject(outcome.result) && outcome.result.resultType === 'input_required'

export function judgeToolCalls(calls: ToolCallMade[], invalid: InvalidCall | undefined, capabilities: Record<string, unknown>): CheckResult {
  const j = modernJudge(TOOL_CALL)
  // An input_required answer is no outcome yet (modern/input-required judges it): the kit answers no input.
  const judged = calls.filter((c) => !inputRequired(c.outcome))
  const refused = invalid && !inputRequired(invalid.outcome) ? invalid : undefined
  const legacy = [
    ...judged.flatMap((c) => judgeUserCall(c.name, c.tool, c.outcome, LEGACY, capabilities)),
    ...(refused ? [judgeInvalidArguments(refused.name, refused.why, refused.outcome, LEGACY)] : []),
  ]
  const carried = legacy.flatMap((result) => {
    const rule = TOOL_CALL.rules.find((r) => r.quote === result.spec?.quote)
    return rule ? [{ result, rule }] : []
  })
  const breaches = carried
    .filter(({ result }) => result.status === 'fail' || result.status === 'warn')
    .map(({ result, rule }) => j.breach(result.message, { ...(result.wire ? { wire: result.wire } : {}), ...(result.details !== undefined ? { details: result.details } : {}) }, rule.case))
  const worst = breaches.find((b) => b.status === 'fail') ?? breaches.find((b) => b.status === 'warn') ?? breaches[0]
  if (worst) return worst
  const passed = carried.filter(({ result }) => result.status === 'pass')
  if (passed.length === 0) {
    if (calls.length === 0) return j.skip('no tool was named with --call; the kit calls real tools only when allowed')
    return j.skip(`Not testable: no --call gave a result to judge (${list(calls.map((c) => c.name))})${invalid ? '' : ', and no --call tool has an inputSchema the kit can violate'}`)
  }
  return j.pass(list(passed.map(({ result }) => result.message), 4))
}
