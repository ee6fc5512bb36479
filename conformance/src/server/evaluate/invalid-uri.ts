/** Pure verdict of resources/invalid-uri: a read of a string that is no URI (../invalid-uri.ts). */
import type { CheckResult } from '../../model.ts'
import { judge, show } from '../check.ts'
import { INVALID_URI, invalidUriVerdict } from '../invalid-uri.ts'
import { RESOURCES_INVALID_URI } from '../registry/features.ts'
import type { RpcOutcome } from '../wire/types.ts'

export function judgeInvalidUri(outcome: RpcOutcome, version: string): CheckResult {
  const j = judge(RESOURCES_INVALID_URI, version)
  if (!j.applies) return j.notInRevision()
  const what = `resources/read of ${show(INVALID_URI)}`
  const verdict = invalidUriVerdict(outcome)
  if (verdict.kind === 'unanswered') return j.breach(`${what} got ${verdict.how}`, { wire: outcome.wire }, 'reply')
  if (verdict.kind === 'served') return j.breach(`${what} got a result: a string that is no URI was served, not refused`, { wire: outcome.wire })
  return j.pass(`${what} was refused: ${verdict.how}`)
}
