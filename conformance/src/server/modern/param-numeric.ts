/**
 * Pure: the verdict of modern/param-numeric (./param-rules.ts): a call that was served with an
 * integer Mcp-Param header, sent again with the same number written as "<n>.0".
 */
import type { CheckResult } from '../../model.ts'
import { INFORMATION, show } from '../check.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import { PARAM_NUMERIC } from './param-rules.ts'

const HEADER_MISMATCH = -32020

/** The integer header rewritten, and what the server answered. */
export interface NumericProbe {
  name: string
  header: string
  value: number
  sent: string
  outcome: RpcOutcome
}

const withStatus = (outcome: RpcOutcome) => `${describeOutcome(outcome)}${outcome.http?.status !== undefined ? ` with HTTP ${outcome.http.status}` : ''}`

export function judgeParamNumeric(transport: 'stdio' | 'http', probe: NumericProbe | undefined): CheckResult {
  const j = modernJudge(PARAM_NUMERIC)
  if (transport !== 'http') return j.skip('Not testable: over stdio there are no HTTP headers')
  if (!probe) return j.skip('Not testable: no --call carried an Mcp-Param header for an integer parameter and was served')
  const { outcome } = probe
  const what = `tools/call of ${show(probe.name, 60)} with ${probe.header}: ${probe.sent} for the body’s ${probe.value}`
  if (outcome.kind === 'timeout' || outcome.kind === 'closed') return j.skip(`Not testable: ${what} got ${describeOutcome(outcome)}`, { wire: outcome.wire })
  if (outcome.kind === 'error' && outcome.error.code === HEADER_MISMATCH) return j.breach(`${what} got ${withStatus(outcome)}: the values were compared as strings, not as numbers`, { wire: outcome.wire })
  if (outcome.kind === 'error' || (outcome.http?.status ?? 0) >= 400) return j.skip(`${INFORMATION}${what} was refused with ${withStatus(outcome)}, not as a header mismatch`, { wire: outcome.wire })
  return j.pass(`${what} was served: the values were compared as numbers (${withStatus(outcome)})`, { wire: outcome.wire })
}
