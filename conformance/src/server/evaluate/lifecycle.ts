/** Pure verdicts on the initialize handshake, ping and cancellation. */
import type { CheckResult, CheckStatus } from '../../model.ts'
import { isObject, judge, list, show, unreadable, type Judge } from '../check.ts'
import { CANCEL_MALFORMED, CANCEL_UNKNOWN, CAPABILITIES, INITIALIZE, PING, PROTOCOL_VERSION, SERVER_INFO, UNSUPPORTED_VERSION } from '../registry/lifecycle.ts'
import { validateShape, type ShapeIssue } from '../shapes.ts'
import { isKnownRevision, isModernRevision, isPublishedRevision, LATEST_REVISION, UNSUPPORTED_REVISION } from '../spec.ts'
import { describeOutcome, type NotifyOutcome, type RpcOutcome } from '../wire/types.ts'

export interface Session {
  requested: string
  /** The revision the rest of the run is judged by. */
  version: string
  capabilities: Record<string, unknown>
  serverInfo: Record<string, unknown>
}

const REVISION_FORMAT = /^\d{4}-\d{2}-\d{2}$/
const CAPABILITY_KEYS = ['tools', 'resources', 'prompts', 'logging', 'completions', 'tasks', 'experimental']

/** A request that got no JSON-RPC response at all breaks the reply rule; anything else the check's own. */
const unanswered = (outcome: RpcOutcome) => outcome.kind === 'timeout' || outcome.kind === 'closed'

export interface InitializeVerdict {
  checks: CheckResult[]
  session?: Session
  /** The protocolVersion the server answered with, when it answered with a result that has one. */
  offered?: string
  /**
   * Set when a run pinned to one revision ends after initialize: the server answered with another
   * revision (a client of only the requested one disconnects), or refused the requested one.
   */
  stopped?: string
}

/**
 * `pinned`: the run judges exactly the requested revision (`--spec-version`). A counter-offer
 * then ends the run after initialize, as the spec has a client that cannot use the offered
 * revision disconnect; unpinned, the run follows the counter-offer.
 */
export function judgeInitialize(outcome: RpcOutcome, requested: string, pinned = false): InitializeVerdict {
  const j = judge(INITIALIZE, requested)
  const wire = outcome.wire
  const blocked = unreadable(j, 'initialize', outcome)
  if (blocked) return { checks: [blocked] }
  if (outcome.kind !== 'result') {
    // An unreachable URL is the caller's problem, not a verdict on the server.
    if (outcome.kind === 'closed' && outcome.unreachable) return { checks: [j.error(`initialize got ${describeOutcome(outcome)}`, { wire })] }
    if (outcome.kind === 'error' && pinned && requested !== LATEST_REVISION) return refusedRevision(outcome, requested)
    return { checks: [j.breach(`initialize got ${describeOutcome(outcome)}`, { wire }, unanswered(outcome) ? 'reply' : undefined)] }
  }
  const result = outcome.result
  const offered = isObject(result) && typeof result.protocolVersion === 'string' ? result.protocolVersion : undefined
  // The shape is judged by the revision the server chose, when the kit knows it.
  const version = offered !== undefined && isKnownRevision(offered) ? offered : requested
  const { issues, unjudged } = validateShape('InitializeResult', result, version)
  const inside = (field: string) => issues.filter((issue) => issue.path[0] === field && issue.path.length > 1)
  const own = issues.filter((issue) => !inside('serverInfo').includes(issue) && !inside('capabilities').includes(issue))
  const observed = { wire, ...(unjudged.length ? { details: { notInRevision: unjudged } } : {}) }
  const stopped = pinned && offered !== undefined && offered !== requested && REVISION_FORMAT.test(offered) ? `the server does not speak ${requested} and offered ${offered}` : undefined
  const problems = own.map((issue) => issue.text)
  const shapeVerdict = () =>
    problems.length
      ? j.breach(`InitializeResult breaks the ${version} schema: ${list(problems, 3)}`, { ...observed, details: { problems, ...(unjudged.length ? { notInRevision: unjudged } : {}) } }, 'shape')
      : j.pass('protocolVersion, capabilities and serverInfo match the InitializeResult schema', observed)
  // Only what the session needs stops the run: a stray field (instructions: 5) is a fail of this
  // check, and every other check still runs.
  if (!isObject(result) || offered === undefined || !isObject(result.capabilities) || !isObject(result.serverInfo)) {
    const checks = [j.breach(`InitializeResult breaks the ${version} schema: ${list(problems.length ? problems : ['the result is not an object'], 3)}`, { ...observed, details: { problems, ...(unjudged.length ? { notInRevision: unjudged } : {}) } }, 'shape')]
    return { checks, ...(offered !== undefined ? { offered } : {}), ...(stopped ? { stopped } : {}) }
  }
  const session: Session = {
    requested,
    version,
    capabilities: result.capabilities,
    serverInfo: result.serverInfo,
  }
  const checks = [
    shapeVerdict(),
    judgeNegotiated(offered, requested, wire, pinned),
    judgeServerInfo(session.serverInfo, inside('serverInfo'), version),
    judgeCapabilities(session.capabilities, inside('capabilities'), version),
  ]
  return stopped ? { checks, offered, stopped } : { checks, offered, session }
}

/**
 * A run pinned to an older revision that the server refused with an error instead of a
 * counter-offer: "Otherwise, the server MUST respond with another protocol version it supports."
 * (The spec's error example is for "1.0.0", which is no revision; lifecycle/unsupported-version
 * treats such a made-up one apart.)
 */
function refusedRevision(outcome: Extract<RpcOutcome, { kind: 'error' }>, requested: string): InitializeVerdict {
  const observed = { wire: outcome.wire, details: { requested } }
  const why = `the server refused initialize for ${requested} with ${describeOutcome(outcome)} instead of offering a revision it supports`
  return {
    checks: [
      judge(INITIALIZE, requested).skip(`not judged for ${requested}: the server does not take this revision (see lifecycle/protocol-version)`, observed),
      judge(PROTOCOL_VERSION, requested).breach(`${why}; no other check runs for ${requested}`, observed),
    ],
    stopped: why,
  }
}

function judgeNegotiated(negotiated: string, requested: string, wire: unknown[], pinned: boolean): CheckResult {
  const j = judge(PROTOCOL_VERSION, requested)
  const observed = { details: { requested, negotiated }, wire }
  if (!REVISION_FORMAT.test(negotiated)) return j.breach(`protocolVersion ${show(negotiated)} is not a protocol revision`, observed)
  if (negotiated === requested) return j.pass(`the server agreed to the requested revision ${requested}`, observed)
  // The server's fault, not the kit's: a revision that does not exist is none it supports.
  if (!isPublishedRevision(negotiated)) return j.breach(`protocolVersion ${show(negotiated)} is no revision of the spec, so not one the server can support; checks follow ${requested}`, observed)
  // A client that cannot use the offered revision SHOULD disconnect: a run pinned to one revision does.
  if (pinned) return j.pass(`the server does not speak ${requested} and counter-offered ${negotiated}; the kit, asked to judge ${requested} only, disconnects, so no other check runs for ${requested}`, observed)
  if (isKnownRevision(negotiated)) return j.pass(`the server does not speak ${requested} and counter-offered ${negotiated}; checks follow ${negotiated}`, observed)
  // A modern revision has no initialize (it is negotiated per request): offered in this handshake, it is no version the handshake can go on with.
  if (isModernRevision(negotiated)) return j.breach(`protocolVersion ${show(negotiated)} is a modern revision, which has no initialize handshake, so not one the server can support in answer to initialize; checks follow ${requested}`, observed)
  return j.error(`the server answered ${show(negotiated)}, a revision this kit cannot judge; checks follow ${requested}`, observed)
}

function judgeServerInfo(info: Record<string, unknown>, issues: ShapeIssue[], version: string): CheckResult {
  const j = judge(SERVER_INFO, version)
  if (issues.length) return j.breach(`serverInfo breaks Implementation: ${list(issues.map((i) => i.text), 3)}`, { details: info })
  return j.pass(`${show(info.name)} ${show(info.version)}`, { details: info })
}

function judgeCapabilities(capabilities: Record<string, unknown>, issues: ShapeIssue[], version: string): CheckResult {
  const j = judge(CAPABILITIES, version)
  const declared = CAPABILITY_KEYS.filter((key) => key in capabilities)
  if (issues.length) return j.breach(`capabilities break ServerCapabilities: ${list(issues.map((i) => i.text), 3)}`, { details: capabilities })
  return j.pass(declared.length ? `declares ${list(declared, 10)}` : 'declares no capabilities', { details: capabilities })
}

/** Asking for a revision nobody supports must yield a counter-offer, not an echo. */
export function judgeUnsupportedVersion(outcome: RpcOutcome | undefined, why: string | undefined, version: string): CheckResult {
  const j = judge(UNSUPPORTED_VERSION, version)
  // No other check carries a second connection that could not be opened: this one reports it.
  if (!outcome) return j.notTestable(undefined, why ?? 'no second connection could be opened')
  const wire = outcome.wire
  const blocked = unreadable(j, `initialize for ${UNSUPPORTED_REVISION}`, outcome)
  if (blocked) return blocked
  if (outcome.kind === 'error') return j.softened(`the server refused with ${describeOutcome(outcome)} instead of offering a revision it supports`, { wire })
  if (outcome.kind !== 'result') return j.breach(`initialize got ${describeOutcome(outcome)}`, { wire }, unanswered(outcome) ? 'reply' : undefined)
  const offered = isObject(outcome.result) ? outcome.result.protocolVersion : undefined
  if (offered === UNSUPPORTED_REVISION) return j.breach(`the server echoed ${UNSUPPORTED_REVISION} although it cannot support it`, { wire })
  if (typeof offered !== 'string' || !REVISION_FORMAT.test(offered)) return j.breach(`the server offered ${show(offered)}, which is not a protocol revision`, { wire })
  // The same judgement as lifecycle/protocol-version's, so the two never disagree on one answer.
  if (!isPublishedRevision(offered)) return j.breach(`the server offered ${show(offered)}, which is no revision of the spec`, { wire })
  return j.pass(`the server counter-offered ${offered}`, { wire })
}

export function judgePing(outcome: RpcOutcome, version: string): CheckResult {
  const j = judge(PING, version)
  const wire = outcome.wire
  const blocked = unreadable(j, 'ping', outcome)
  if (blocked) return blocked
  if (unanswered(outcome)) return j.breach(`ping got ${describeOutcome(outcome)}`, { wire }, 'reply')
  if (outcome.kind !== 'result') return j.breach(`ping was answered with ${describeOutcome(outcome)}, not an empty result`, { wire })
  if (!isObject(outcome.result)) return j.breach(`the ping result is ${show(outcome.result)}, not an empty object`, { wire })
  const extra = Object.keys(outcome.result).filter((key) => key !== '_meta')
  if (extra.length) return j.breach(`the ping result must be empty but carries ${list(extra.map((k) => show(k, 40)))}`, { wire })
  return j.pass('answered with {}', { wire })
}

/**
 * A cancellation for a request id the server never saw must be ignored, and the server keeps
 * answering. A response to the notification itself is the envelope's to judge
 * (jsonrpc/no-response-to-notifications), so it is not double-counted here. `pingStatus`: the
 * verdict of lifecycle/ping; a server that cannot answer ping at all has not stopped answering.
 */
export function judgeCancelUnknown(sent: NotifyOutcome, ping: RpcOutcome, version: string, pingStatus: CheckStatus = 'pass'): CheckResult {
  return judgeCancelIgnored(judge(CANCEL_UNKNOWN, version), sent, ping, pingStatus, false)
}

/**
 * The same for a cancellation whose requestId no request can have. Over HTTP an error status for
 * it is a refusal the transport asks for ("If the server cannot accept the input, it MUST return
 * an HTTP error status code"), so only the ping after it judges the server. `unknownStatus`: the
 * verdict of lifecycle/cancel-unknown-request, sent first; a server that stopped answering then
 * proves nothing by a ping that fails now.
 */
export function judgeCancelMalformed(sent: NotifyOutcome, ping: RpcOutcome, version: string, pingStatus: CheckStatus = 'pass', unknownStatus: CheckStatus = 'pass'): CheckResult {
  const j = judge(CANCEL_MALFORMED, version)
  if (ping.kind !== 'result' && (unknownStatus === 'fail' || unknownStatus === 'warn') && pingStatus !== 'fail' && pingStatus !== 'warn') {
    return j.notTestable(CANCEL_UNKNOWN.id, `the ping after it got ${describeOutcome(ping)}, but the server had stopped answering properly after the cancellation sent before it`, { wire: [...sent.wire, ...ping.wire] })
  }
  return judgeCancelIgnored(j, sent, ping, pingStatus, true)
}

function judgeCancelIgnored(j: Judge, sent: NotifyOutcome, ping: RpcOutcome, pingStatus: CheckStatus, refusalAllowed: boolean): CheckResult {
  const wire = [...sent.wire, ...ping.wire]
  if (!sent.ok && !refusalAllowed) return j.breach(`the notification was refused: ${sent.reason ?? 'unknown reason'}`, { wire })
  const blocked = unreadable(j, 'the ping after it', ping)
  if (blocked) return blocked
  if (ping.kind !== 'result' && (pingStatus === 'fail' || pingStatus === 'warn')) {
    return j.notTestable(PING.id, `the ping after it got ${describeOutcome(ping)}, but the server does not answer ping properly before it either`, { wire })
  }
  if (ping.kind === 'error') return j.breach(`a ping right after it was answered with ${describeOutcome(ping)}`, { wire })
  if (ping.kind !== 'result') return j.breach(`the server stopped answering: a ping right after it got ${describeOutcome(ping)}`, { wire })
  return j.pass(sent.ok ? 'ignored, and a ping right after it was answered' : `refused (${sent.reason ?? 'unknown reason'}), and a ping right after it was answered`, { wire })
}
