import type { CheckResult } from '../model.ts'
import { LATEST_REVISION } from '../server/spec.ts'
import { BRIDGE_ONLY_CHECKS, checkNotApplicable, infoSentence, shouldSentence, type ClientKind } from './applicability.ts'
import { checkExpectations, type EndState } from './expectations.ts'
import { BRIDGE_RULES, citedForce, keywordLevel } from './rules.ts'
import type { Scenario } from './scenario.ts'

/** How information reads: never a verdict, always the sentence that says why. */
export const INFORMATION = 'Information (no requirement for clients): '

/**
 * The one place where a client's checks become its verdicts, for a driven client
 * (run-scenario.ts) and for a wire log (judge.ts) alike, by the revision the run negotiated. For a
 * client other than a bridge, a breach is judged by the force of the sentence it cites, and by
 * nothing else:
 * - a check that judges bridges only is a `skip` ("not applicable: …");
 * - the scenario's own word comes first: `applies.should` makes a breach a `warn` quoting that
 *   SHOULD, `applies.info` makes it information quoting its sentence;
 * - otherwise the citation's force (rules.ts citedForce): MUST → the `fail` stands; SHOULD → a
 *   `warn`; MAY, no keyword, no quoted sentence, or the bridge's own rule (BRIDGE) → information,
 *   a `skip` that says so. A check never fails a client by default: only a quoted MUST does.
 * A bridge keeps every verdict; where its failure is its own contract rather than a spec MUST
 * (rules.ts BRIDGE_RULES), the verdict cites that rule, keyword BRIDGE. Pure.
 */
export function verdictsFor(scenario: Scenario | undefined, kind: ClientKind, checks: CheckResult[], revision: string = LATEST_REVISION): CheckResult[] {
  return checks.map((check) => {
    if (check.status === 'error') return check
    const unsteady = scenario?.applies.unsteady[check.id]
    if (unsteady && (check.status === 'pass' || check.status === 'skip')) return { ...check, status: 'skip' as const, message: `not judged in this scenario: ${unsteady}` }
    const reason = scenario ? checkNotApplicable(scenario, kind, check.id) : kind === 'bridge' ? undefined : BRIDGE_ONLY_CHECKS[check.id]
    if (reason) return { ...check, status: 'skip' as const, message: `not applicable: ${reason}` }
    if (kind === 'bridge') return bridgeVerdict(check)
    if (check.status !== 'fail' && check.status !== 'warn') return check
    const should = scenario ? shouldSentence(scenario, kind, check.id, revision) : undefined
    if (should) return check.status === 'fail' ? { ...check, status: 'warn' as const, message: `${check.message} (a SHOULD for clients: ${should})` } : check
    const info = scenario ? infoSentence(scenario, kind, check.id) : undefined
    if (info) return information(check, info)
    const force = citedForce(check.spec)
    if (force === 'MUST') return check
    if (force === 'SHOULD') return check.status === 'fail' ? { ...check, status: 'warn' as const, message: `${check.message} (a SHOULD for clients: ${check.spec!.ref})` } : check
    if (force === 'BRIDGE') return information(check, `no spec sentence asks this of a client; ${check.spec!.ref}`)
    return information(check, check.spec ? `the sentence cited asks nothing of clients with a MUST or SHOULD: ${check.spec.ref}` : 'no spec sentence is cited')
  })
}

/** A breach reported as information: a `skip` that quotes why it is no verdict. */
function information(check: CheckResult, why: string): CheckResult {
  return { ...check, status: 'skip' as const, message: `${INFORMATION}${check.message} (${why})` }
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
