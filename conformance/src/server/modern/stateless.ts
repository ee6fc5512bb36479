/** Pure: the verdict of modern/stateless (./stateless-rules.ts) on what a fresh connection was answered. */
import type { CheckResult } from '../../model.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import { STATELESS } from './stateless-rules.ts'

/** The exchanges of the fresh connection: its first request, and, when that was not served, discover and the request again. */
export type StatelessProbe =
  | { kind: 'not-testable'; why: string }
  | { kind: 'probed'; method: string; first: RpcOutcome; discover?: RpcOutcome; again?: RpcOutcome }

export function judgeStateless(probe: StatelessProbe): CheckResult {
  const j = modernJudge(STATELESS)
  if (probe.kind === 'not-testable') return j.skip(`Not testable: ${probe.why}`)
  const { method, first, again } = probe
  const what = `${method} as the first request of a new connection`
  if (first.kind === 'result') return j.pass(`${what} was served`, { wire: first.wire })
  // A process just started may still be starting: a wait bounded by the request timeout proves no missing reply.
  if (first.kind === 'timeout') return j.skip(`Not testable: ${what} got ${describeOutcome(first)}; a process just started may still be starting`, { wire: first.wire })
  if (first.kind === 'closed') return j.breach(`${what} got ${describeOutcome(first)}`, { wire: first.wire }, 'reply')
  if (again?.kind === 'result') return j.breach(`${what} got ${describeOutcome(first)}, and was served once server/discover had been sent on that connection: the server relied on the earlier request`, { wire: [...first.wire, ...(probe.discover?.wire ?? []), ...again.wire] })
  return j.skip(`Not testable: ${what} got ${describeOutcome(first)}, and ${again ? `got ${describeOutcome(again)} after server/discover too` : 'could not be sent again'}: it fails either way (the main connection’s checks judge why)`, { wire: first.wire })
}
