/** Pure: the verdict of modern/param-headers (./param-rules.ts) on the run's tool calls over HTTP. */
import type { CheckResult } from '../../model.ts'
import { list, show } from '../check.ts'
import type { ToolCall } from '../probe/tools.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import type { ParamHeaders } from './param-headers.ts'
import { PARAM_HEADERS } from './param-rules.ts'

const HEADER_MISMATCH = -32020

/** One --call over HTTP of a listed tool: the Mcp-Param headers it carried and those it left out. */
export interface ParamCall extends ParamHeaders {
  name: string
  arguments: ToolCall['arguments']
  outcome: RpcOutcome
}

/** The call sent again with invalid characters in `header`. */
export interface ParamProbe {
  name: string
  header: string
  outcome: RpcOutcome
}

const withStatus = (outcome: RpcOutcome) => `${describeOutcome(outcome)}${outcome.http?.status !== undefined ? ` with HTTP ${outcome.http.status}` : ''}`

export function judgeParamHeaders(transport: 'stdio' | 'http', calls: ParamCall[], probe: ParamProbe | undefined): CheckResult {
  const j = modernJudge(PARAM_HEADERS)
  if (transport !== 'http') return j.skip('Not testable: over stdio there are no HTTP headers')
  const annotated = calls.filter((c) => Object.keys(c.headers).length > 0 || c.omitted.length > 0)
  if (annotated.length === 0) return j.skip(`Not testable: ${calls.length ? 'no --call tool has an x-mcp-header parameter' : 'no --call of a listed tool was made'}`)
  const expected = annotated.find((c) => c.omitted.length > 0 && Object.keys(c.headers).length === 0 && c.outcome.kind === 'error' && c.outcome.error.code === HEADER_MISMATCH)
  if (expected) {
    const left = list(expected.omitted.map((o) => `Mcp-Param-${o.header} (${o.why === 'null' ? 'the value is null' : 'not in the arguments'})`), 3)
    return j.breach(`tools/call of ${show(expected.name, 60)} without ${left} got ${withStatus(expected.outcome)}: the server expected a header the client must omit`, { wire: expected.outcome.wire }, 'omitted')
  }
  const judged: string[] = []
  const omitting = annotated.filter((c) => c.omitted.length > 0 && Object.keys(c.headers).length === 0)
  if (omitting.length) judged.push(`${list(omitting.map((c) => `tools/call of ${show(c.name, 40)}`), 3)} without Mcp-Param headers for parameters left out: not refused for them`)
  if (probe) {
    const { outcome } = probe
    if (outcome.kind === 'timeout' || outcome.kind === 'closed') return j.skip(`Not testable: tools/call of ${show(probe.name, 60)} with ${probe.header} ending in 0xE9 got ${describeOutcome(outcome)}`, { wire: outcome.wire })
    const rejected = outcome.kind === 'error' || (outcome.http?.status ?? 0) >= 400
    if (!rejected) return j.breach(`tools/call of ${show(probe.name, 60)} with ${probe.header} ending in 0xE9 (no visible ASCII character) got ${withStatus(outcome)}: served, not rejected`, { wire: outcome.wire }, 'invalid')
    judged.push(`${probe.header} ending in 0xE9 rejected (${withStatus(outcome)})`)
  }
  if (judged.length === 0) return j.skip('Not testable: no --call left an annotated parameter out, and none carrying an Mcp-Param header was served to repeat with invalid characters')
  return j.pass(judged.join('; '))
}
