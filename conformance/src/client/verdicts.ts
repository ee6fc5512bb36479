import type { CheckResult } from '../model.ts'
import { checkNotApplicable, shouldSentence, type ClientKind } from './applicability.ts'
import { checkExpectations, type EndState } from './expectations.ts'
import type { Scenario } from './scenario.ts'

/**
 * The one place where a client's checks become its verdicts, for a driven client
 * (run-scenario.ts) and for a wire log (judge.ts) alike: a check that judges bridges only is a
 * `skip` ("not applicable: …"), a breached SHOULD is a `warn` that quotes the sentence. A bridge
 * keeps every verdict (our contract makes these MUSTs). Pure.
 */
export function verdictsFor(scenario: Scenario | undefined, kind: ClientKind, checks: CheckResult[]): CheckResult[] {
  if (!scenario) return checks
  return checks.map((check) => {
    const reason = check.status === 'error' ? undefined : checkNotApplicable(scenario, kind, check.id)
    if (reason) return { ...check, status: 'skip' as const, message: `not applicable: ${reason}` }
    const should = check.status === 'fail' ? shouldSentence(scenario, kind, check.id) : undefined
    return should ? { ...check, status: 'warn' as const, message: `${check.message} (a SHOULD for clients: ${should})` } : check
  })
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
