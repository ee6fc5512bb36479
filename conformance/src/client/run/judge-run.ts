import { readHttpLog } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../../model.ts'
import { clientEras } from '../eras.ts'
import { checkHttpInvariants, negotiatedVersions } from '../http-invariants.ts'
import { checkInvariants } from '../invariants.ts'
import { checkModernInvariants } from '../modern-invariants.ts'
import { checkAsks } from '../asks.ts'
import { checkPings } from '../ping.ts'
import { checkShutdown } from '../processes.ts'
import { runRevision } from '../rules.ts'
import type { Revision } from '../../server/spec.ts'
import { checkTaskNegotiation } from '../task-negotiation.ts'
import { checkTimings } from '../timing.ts'
import { snapshotCheck } from './transcript.ts'
import type { RunState } from './state.ts'
import type { TornDown } from './teardown.ts'

/**
 * The end-of-run judging, once the client is gone: the invariants every client keeps, the
 * harness's own health, and whether the run applied at all. Adds to run.checks; returns the
 * revision the client negotiated, which every verdict cites (rules.ts).
 */
export function judgeRun(run: RunState, torn: TornDown): Revision {
  const { checks, fixture, session } = run
  const violations = session?.protocolViolations?.() ?? []
  // A broken harness (a driver that crashed, broke the protocol or never connected) gives no verdicts.
  const harnessBroken = violations.length > 0 || checks.some((check) => check.status === 'error')
  if (harnessBroken) checks.splice(0, checks.length, ...checks.filter((check) => check.status === 'error'))
  // Every verdict cites the revision the client negotiated (rules.ts), and only its rules are judged.
  const revision = runRevision(fixture.wire())
  if (session && !run.notApplicable && !harnessBroken) checks.push(...invariantChecks(run, torn, revision))
  if (violations.length) checks.push({ id: 'harness/driver', title: 'The driver speaks the driver protocol', status: 'error', message: violations.slice(0, 3).join('; ') })
  if (torn.leftoverNames.length) {
    checks.push({ id: 'harness/leftover-processes', title: 'The driver leaves no process behind', status: 'skip', message: `Information: the driver's process tree left ${torn.leftoverNames.length} process(es) running after it ended, which the kit stopped: ${torn.leftoverNames.join('; ')}` })
  }
  // A driven client that spoke only the legacy era to a modern-only fixture cannot reach it, which
  // says nothing of its conformance: MCP 2026-07-28 (basic/versioning, Terminology) lets an
  // implementation be legacy. Judged at the modern era only once it speaks 2026-07-28.
  if (run.era === 'modern' && run.kind === 'client' && !run.notApplicable && !checks.some((c) => c.status === 'error') && !clientEras(fixture.wire()).includes('modern')) {
    checks.splice(0, checks.length, { id: 'applies/scenario', title: 'The scenario applies to this client', status: 'skip', message: 'not applicable: the client spoke only the legacy era (MCP 2025-11-25 and before), and this run\'s server speaks only 2026-07-28' })
  }
  return revision
}

/** What holds for the run as a whole: times, invariants, the wire's rules per transport and era, the snapshot. */
function invariantChecks(run: RunState, { afterDispose, orphans, known, reported, goneAtClose }: TornDown, revision: Revision): CheckResult[] {
  const { scenario, transport, era, fixture } = run
  const checks: CheckResult[] = []
  const wire = fixture.wire()
  checks.push(...checkTimings(scenario, run.measured))
  const noProcesses = transport === 'http' ? 'over HTTP the client starts no server process (the fixture runs in the kit)' : undefined
  checks.push(...checkInvariants({ snapshots: run.observer.snapshots, wire, afterDispose, orphans, processes: known.length, noProcesses, quarantined: scenario.expect.quarantined, ownTools: scenario.expect.ownTools }))
  // Only where tasks came up at all (the server declared them, or a call asked for one).
  checks.push(...checkTaskNegotiation(wire))
  // Only where the server pinged.
  checks.push(...checkPings(wire, revision))
  // Only where the server asked for roots, sampling or elicitation.
  checks.push(...checkAsks(wire, revision))
  if (scenario.expect.shutdown && transport === 'stdio') checks.push(checkShutdown(scenario.expect.shutdown, reported, orphans, revision))
  // Session rules are the legacy era's: a client that spoke only 2026-07-28 has no session to keep.
  const spokeLegacy = era === 'legacy' || clientEras(wire).includes('legacy')
  if (transport === 'http') checks.push(...checkHttpInvariants(readHttpLog(fixture.wireFile), { serverGone: goneAtClose, negotiated: negotiatedVersions(wire), revision, spokeLegacy }))
  if (era !== 'legacy') checks.push(...checkModernInvariants(wire, transport === 'http' ? readHttpLog(fixture.wireFile) : undefined, era))
  checks.push(snapshotCheck(run, wire))
  return checks
}
