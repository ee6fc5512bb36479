/**
 * The run for a server that refused the legacy initialize: the server/discover probe that tells a
 * modern server, and the checks of the modern revision it speaks. Never throws; every exchange is
 * bounded by the run's request timeout.
 */
import type { CheckResult } from '../../model.ts'
import { CLIENT_INFO } from '../client-info.ts'
import type { ToolCall } from '../probe/tools.ts'
import { UNSUPPORTED_REVISION, type ModernRevision } from '../spec.ts'
import type { ServerWire } from '../wire/server-wire.ts'
import type { NotifyOutcome, RpcOutcome } from '../wire/types.ts'
import { eraOf, modernSignal, type Era } from './detect.ts'
import { isObject } from '../check.ts'
import { judgeCancelIgnored, judgeModernEnvelope, type CancelProbe } from './envelope.ts'
import { judgeUnaskedNotifications } from './notices.ts'
import { judgePosts } from './posts.ts'
import { judgeModernSse } from './sse.ts'
import { runRequests } from './requests.ts'
import { judgeStateless } from './stateless.ts'
import { probeStateless, type Reopen } from './stateless-run.ts'
import { initializeNotJudged, judgeDiscover, judgeDiscoverServerInfo, judgeInitializeRefusal, judgeModernUnsupportedVersion, notYetJudged, revisionNotJudged, revisionNotSpoken } from './evaluate.ts'

/** The per-request _meta of 2026-07-28 (its required fields, and clientInfo, which it says clients SHOULD send). */
export function modernMeta(protocolVersion: string): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': protocolVersion,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': {},
  }
}

/** server/discover the modern way: the version in _meta, and over HTTP in MCP-Protocol-Version, with Mcp-Method. */
export async function discover(wire: ServerWire, protocolVersion: string, timeoutMs: number): Promise<RpcOutcome> {
  if (wire.http) {
    wire.http.protocolVersion = protocolVersion
    wire.http.methodHeader = true
  }
  return wire.request('server/discover', { _meta: modernMeta(protocolVersion) }, timeoutMs)
}

export interface Detection {
  era: Era
  /** The wire that answered the probe: the run's own, or a fresh one when the server had closed it. */
  wire: ServerWire
  discover?: RpcOutcome
}

/**
 * After initialize was refused with an error: probe with server/discover for the newest modern
 * revision. A stdio server may have exited after refusing (no rule keeps it alive): the probe is
 * then sent on a fresh connection, which `reopen` opens (and the caller shuts down).
 */
export async function detectEra(wire: ServerWire, initialize: RpcOutcome, revision: string, timeoutMs: number, reopen: () => Promise<ServerWire | undefined>): Promise<Detection> {
  let probed = wire
  let outcome = await discover(wire, revision, timeoutMs)
  if (outcome.kind === 'closed' && wire.transport === 'stdio') {
    const fresh = await reopen()
    if (fresh) {
      probed = fresh
      outcome = await discover(fresh, revision, timeoutMs)
    }
  }
  return { era: eraOf(initialize, outcome), wire: probed, discover: outcome }
}

/** An id no request of the kit ever has: the cancellation naming it is one a server must ignore. */
const NEVER_SENT = 'mcp-conformance-never-sent'

/**
 * Judged last, over everything the connection carried: first three cancellations a server must
 * ignore (of a request never sent, of the answered `answered`, and one without a requestId), so
 * that the rule that a notification gets no response is put to the test too; then a request that
 * must still be answered.
 */
async function envelope(wire: ServerWire, revision: ModernRevision, timeoutMs: number, discovered: RpcOutcome): Promise<CheckResult[]> {
  const notified: { method: string; outcome: NotifyOutcome }[] = []
  const cancel = async (params: Record<string, unknown>) => {
    notified.push({ method: 'notifications/cancelled', outcome: await wire.notify('notifications/cancelled', { ...params, reason: 'conformance probe', _meta: modernMeta(revision) }) })
  }
  const probe: CancelProbe = { sent: ['unknown'], after: discovered }
  await cancel({ requestId: NEVER_SENT })
  const answered = (discovered.wire[0]?.message as { id?: unknown } | undefined)?.id
  if (typeof answered === 'string' || typeof answered === 'number') {
    await cancel({ requestId: answered })
    probe.sent.push('completed')
  }
  await cancel({})
  probe.sent.push('malformed')
  // Over stdio a reply to them has no POST to come back on; a server answering in order sends it before the answer to the next request.
  probe.after = await discover(wire, revision, timeoutMs)
  const { ledger, http } = wire
  const capabilities = discovered.kind === 'result' && isObject(discovered.result) && isObject(discovered.result.capabilities) ? discovered.result.capabilities : {}
  if (http) await http.streamsEnded()
  const posts = http ? [judgePosts(http.posts, notified, revision), ...judgeModernSse(http.posts, revision, timeoutMs)] : []
  return [...judgeModernEnvelope(ledger, wire.transport, revision), judgeUnaskedNotifications(ledger, capabilities, revision), judgeCancelIgnored(probe, revision), ...posts]
}

/** The checks of a server that speaks only modern revisions, after its legacy initialize was refused. */
export async function runModern(detection: Detection & { era: Extract<Era, { era: 'modern-only' }> }, initialize: Extract<RpcOutcome, { kind: 'error' }>, requested: string, timeoutMs: number, calls: readonly ToolCall[] = [], reopen?: Reopen): Promise<CheckResult[]> {
  const { era, wire } = detection
  const checks = [initializeNotJudged(requested, era.supported, initialize), judgeInitializeRefusal(initialize, era.supported)]
  if (!era.revision) return [...checks, revisionNotJudged(era.supported)]
  // The probe asked for the newest modern revision the kit knows; that is the one judged.
  const answer = detection.discover ?? (await discover(wire, era.revision, timeoutMs))
  checks.push(judgeDiscover(answer), judgeDiscoverServerInfo(answer))
  const refused = await discover(wire, UNSUPPORTED_REVISION, timeoutMs)
  checks.push(judgeModernUnsupportedVersion(refused, UNSUPPORTED_REVISION, wire.transport))
  if (answer.kind === 'result') {
    checks.push(...(await runRequests(wire, era.revision, answer, refused, timeoutMs, calls)), ...(await envelope(wire, era.revision, timeoutMs, answer)))
    checks.push(judgeStateless(await probeStateless(wire.transport, reopen, era.revision, timeoutMs, answer)))
  }
  checks.push(notYetJudged(era.revision))
  return checks
}

/**
 * A run pinned to a modern revision (`--spec-version 2026-07-28`): no initialize, the revision's
 * server/discover first. A server that answers it with a DiscoverResult listing the revision (a
 * modern or dual-era one) is judged by the revision's checks; any other answer marks a server that
 * does not speak it, which is then judged by nothing of it.
 */
export async function runPinnedModern(wire: ServerWire, revision: ModernRevision, timeoutMs: number, calls: readonly ToolCall[] = [], reopen?: Reopen): Promise<{ checks: CheckResult[]; spoken: boolean }> {
  const answer = await discover(wire, revision, timeoutMs)
  const spoken = answer.kind === 'result' && (modernSignal(answer) ?? []).includes(revision)
  if (!spoken) return { checks: [revisionNotSpoken(revision, answer)], spoken }
  const refused = await discover(wire, UNSUPPORTED_REVISION, timeoutMs)
  const requests = await runRequests(wire, revision, answer, refused, timeoutMs, calls)
  const envelopes = await envelope(wire, revision, timeoutMs, answer)
  const stateless = judgeStateless(await probeStateless(wire.transport, reopen, revision, timeoutMs, answer))
  return { checks: [judgeDiscover(answer), judgeDiscoverServerInfo(answer), judgeModernUnsupportedVersion(refused, UNSUPPORTED_REVISION, wire.transport), ...requests, ...envelopes, stateless, notYetJudged(revision)], spoken }
}
