/**
 * Pure verdicts on what a server answers to input it cannot know: a log level no revision defines,
 * a list cursor it never issued. Each sentence asks for -32602 with SHOULD, so any other answer warns.
 */
import type { CheckResult, CheckStatus } from '../../model.ts'
import { judge, list, show, unreadable } from '../check.ts'
import { INVALID_CURSOR, SET_LEVEL_INVALID } from '../registry/features.ts'
import { ERROR_RESPONSES } from '../registry/messages.ts'
import type { CheckDef } from '../registry/types.ts'
import { UNKNOWN_CURSOR, UNKNOWN_LEVEL } from '../unknown-inputs.ts'
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

/** Worst first: the verdict of several asks is the first of these any of them got. */
const SEVERITY: CheckStatus[] = ['error', 'fail', 'warn', 'skip', 'pass']

/** One declared list; `outcome`: its answer to a cursor it never issued, asked only of a list that paginates. */
export interface CursorList {
  method: string
  outcome?: RpcOutcome
}

/**
 * The declared lists' answers to a cursor never issued. A list that does not paginate (its first
 * page had no nextCursor) issues no cursors, so it is not asked: nothing to judge.
 */
export function judgeInvalidCursor(lists: CursorList[], version: string): CheckResult {
  const j = judge(INVALID_CURSOR, version)
  if (lists.length === 0) return j.skip('the server declares none of tools, resources and prompts: no list to ask')
  const asked = lists.flatMap(({ method, outcome }) => (outcome ? [{ method, outcome }] : []))
  if (asked.length === 0) return j.skip(`${list(lists.map((l) => l.method))}: none paginates cleanly (a single page, or a chain its pagination check reports), so none issues cursors; nothing to judge`)
  const verdicts = asked.map(({ method, outcome }) => judgeInvalid(INVALID_CURSOR, version, `${method} with cursor "${UNKNOWN_CURSOR}"`, outcome))
  const worst = [...verdicts].sort((a, b) => SEVERITY.indexOf(a.status) - SEVERITY.indexOf(b.status))[0]!
  if (worst.status !== 'pass') return worst
  return j.pass(`${list(asked.map((a) => a.method))} refused a cursor never issued with -32602`, { wire: asked.flatMap((a) => a.outcome.wire) })
}
