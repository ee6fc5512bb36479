import type { CheckResult } from '../model.ts'
import { LATEST_REVISION } from '../server/spec.ts'
import { BRIDGE_ONLY_CHECKS, checkNotApplicable, infoSentence, shouldSentence, type ClientKind } from './applicability.ts'
import { checkExpectations, type EndState } from './expectations.ts'
import { BRIDGE_RULES, keywordLevel } from './rules.ts'
import type { Scenario } from './scenario.ts'

/** How information reads: never a verdict, always the sentence that says why. */
export const INFORMATION = 'Information (no requirement for clients): '

/**
 * The one place where a client's checks become its verdicts, for a driven client
 * (run-scenario.ts) and for a wire log (judge.ts) alike, by the revision the run negotiated:
 * - a check that judges bridges only is a `skip` ("not applicable: …");
 * - a breach of a SHOULD (the scenario's `applies.should`, or the check's own sentence, keyword
 *   SHOULD) is a `warn` that quotes the sentence;
 * - a breach of a sentence without a keyword, or with MAY (`applies.info`, keyword NONE or MAY),
 *   or of the bridge's own rule (keyword BRIDGE), is information: a `skip` that quotes it.
 * A bridge keeps every verdict; where its failure is its own contract rather than a spec MUST
 * (rules.ts BRIDGE_RULES), the verdict cites that rule, keyword BRIDGE. Pure.
 */
export function verdictsFor(scenario: Scenario | undefined, kind: ClientKind, checks: CheckResult[], revision: string = LATEST_REVISION): CheckResult[] {
  return checks.map((check) => {
    if (check.status === 'error') return check
    const reason = scenario ? checkNotApplicable(scenario, kind, check.id) : kind === 'bridge' ? undefined : BRIDGE_ONLY_CHECKS[check.id]
    if (reason) return { ...check, status: 'skip' as const, message: `not applicable: ${reason}` }
    if (kind === 'bridge') return bridgeVerdict(check)
    if (check.status !== 'fail' && check.status !== 'warn') return check
    const should = scenario ? shouldSentence(scenario, kind, check.id, revision) : undefined
    if (should) return check.status === 'fail' ? { ...check, status: 'warn' as const, message: `${check.message} (a SHOULD for clients: ${should})` } : check
    const info = scenario ? infoSentence(scenario, kind, check.id) : undefined
    if (info) return { ...check, status: 'skip' as const, message: `${INFORMATION}${check.message} (${info})` }
    const level = check.spec?.keyword === undefined ? undefined : keywordLevel(check.spec.keyword)
    if (level === 'SHOULD' && check.status === 'fail') return { ...check, status: 'warn' as const, message: `${check.message} (a SHOULD for clients: ${check.spec!.ref})` }
    if (level === 'NONE' || level === 'MAY') return { ...check, status: 'skip' as const, message: `${INFORMATION}${check.message} (${check.spec!.ref})` }
    if (level === 'BRIDGE') return { ...check, status: 'skip' as const, message: `${INFORMATION}${check.message} (no spec sentence asks this of a client; ${check.spec!.ref})` }
    return check
  })
}

/** A bridge's failure of a rule below a MUST of the spec is the bridge's own rule: cited as such (keyword BRIDGE), the spec's sentence named beside it. */
function bridgeVerdict(check: CheckResult): CheckResult {
  const own = BRIDGE_RULES[check.id]
  if (check.status !== 'fail' || !own || keywordLevel(check.spec?.keyword) === 'MUST') return check
  const spec = check.spec?.keyword === 'BRIDGE' ? '' : `; for other clients ${check.spec?.keyword ? `a ${check.spec.keyword}` : 'no requirement'}: ${check.spec?.ref ?? 'no spec sentence'}`
  return { ...check, message: `${check.message} (the bridge's own rule${spec})`, spec: own }
}

/**
 * The scenario's end-of-run expectations as they hold for this client (pure):
 * - a bound the scenario marks bridge-only by itself (`applies.bridgeOnly` key
 *   `expect/received/<method>.max` or `.min`) is dropped for a client, and a pass says so;
 *   the rest of the check (`initialize` at least twice after a 404: a MUST) is still judged;
 * - `tools/list` from a paginating server is counted per discovery for a client (a request
 *   without a cursor and the cursor requests after it): a client may discover more than once
 *   (a cache warmed at connect, then a list when asked), and the bound is on each walk of the
 *   cursor chain, which is what pagination rules are about.
 */
export function checkExpectationsFor(scenario: Scenario, kind: ClientKind, end: EndState): CheckResult[] {
  if (kind === 'bridge') return checkExpectations(scenario, end)
  const received: Scenario['expect']['received'] = {}
  const dropped = new Map<string, string[]>()
  for (const [method, bounds] of Object.entries(scenario.expect.received)) {
    const kept = { ...bounds }
    for (const side of ['min', 'max'] as const) {
      if (kept[side] === undefined || !scenario.applies.bridgeOnly[`expect/received/${method}.${side}`]) continue
      dropped.set(method, [...(dropped.get(method) ?? []), `${side} ${kept[side]}`])
      delete kept[side]
    }
    received[method] = kept
  }
  const perDiscovery = scenario.server.pagination !== undefined ? ['tools/list'] : []
  const checks = checkExpectations({ ...scenario, expect: { ...scenario.expect, received } }, end, { perDiscovery })
  return checks.map((check) => {
    const method = check.id.startsWith('expect/received/') ? check.id.slice('expect/received/'.length) : undefined
    const gone = method === undefined ? undefined : dropped.get(method)
    // A pass never claims more than it checked; a failure is about the bound it names.
    if (!gone || check.status !== 'pass') return check
    const reasons = gone.map((bound) => `${bound}: ${scenario.applies.bridgeOnly[`expect/received/${method}.${bound.split(' ')[0]}`]}`)
    return { ...check, message: `${check.message} (not applicable to this client: ${reasons.join('; ')})` }
  })
}
