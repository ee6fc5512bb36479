/** Pure verdict on the Mcp-Name probes of ./name-header-run.ts (./name-header-rules.ts). */
import type { CheckResult } from '../../model.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import { NAME_HEADER } from './name-header-rules.ts'

const HEADER_MISMATCH = -32020

/** One request, sent four ways; `label` names it ("resources/read of fixture://notes/readme"). */
export interface NameProbes {
  label: string
  control: RpcOutcome
  mismatch: RpcOutcome
  missing: RpcOutcome
  encoded: RpcOutcome
}

const unanswered = (outcome: RpcOutcome) => outcome.kind === 'timeout' || outcome.kind === 'closed'
const status = (outcome: RpcOutcome) => outcome.http?.status
const withStatus = (outcome: RpcOutcome) => `${describeOutcome(outcome)}${status(outcome) !== undefined ? ` with HTTP ${status(outcome)}` : ''}`
/** Refused for its headers: error -32020, or HTTP 400 (which a proxy in front may answer without JSON-RPC). */
const headerRefusal = (outcome: RpcOutcome) => (outcome.kind === 'error' && outcome.error.code === HEADER_MISMATCH) || status(outcome) === 400

export function judgeNameHeader(probes: NameProbes | undefined, transport: 'stdio' | 'http'): CheckResult {
  const j = modernJudge(NAME_HEADER)
  if (transport === 'stdio') return j.skip('Not testable: headers are Streamable HTTP only')
  if (!probes) return j.skip('Not testable: no listed resource with a plain ASCII URI and no listed prompt without required arguments to name')
  const { label, control, mismatch, missing, encoded } = probes
  const sent: [string, RpcOutcome][] = [
    ['with a correct Mcp-Name', control],
    ['with an Mcp-Name naming something else', mismatch],
    ['without Mcp-Name', missing],
    ['with its Mcp-Name Base64-encoded', encoded],
  ]
  const silent = sent.find(([, outcome]) => unanswered(outcome))
  if (silent) return j.breach(`${label} ${silent[0]} got ${describeOutcome(silent[1])}`, { wire: silent[1].wire }, 'reply')
  if (headerRefusal(control)) return j.skip(`Not testable: ${label} with a correct Mcp-Name got ${withStatus(control)}: the server refuses even the correct header`, { wire: control.wire })
  const judged = (outcome: RpcOutcome, what: string, missingCase?: string): CheckResult | undefined => {
    if (outcome.kind === 'result') return j.breach(`${label} ${what} got a result: the request was served, not rejected`, { wire: outcome.wire }, missingCase)
    if (!headerRefusal(outcome)) return j.breach(`${label} ${what} got ${withStatus(outcome)}, not a rejection for its header`, { wire: outcome.wire }, missingCase)
    if (!(outcome.kind === 'error' && outcome.error.code === HEADER_MISMATCH && status(outcome) === 400)) return j.breach(`${label} ${what} got ${withStatus(outcome)}, not HTTP 400 with error -32020`, { wire: outcome.wire }, 'code')
    return undefined
  }
  const broken = judged(mismatch, 'with an Mcp-Name naming something else') ?? judged(missing, 'without Mcp-Name', 'missing')
  if (broken) return broken
  if (headerRefusal(encoded)) return j.breach(`${label} with its Mcp-Name Base64-encoded (=?base64?…?=) got ${withStatus(encoded)}, though the decoded value matches the body and the plain one was served`, { wire: encoded.wire }, 'base64')
  return j.pass(`${label}: a wrong or missing Mcp-Name got HTTP 400 with -32020; the Base64-encoded one was served as the plain one was`)
}
