/** Pure verdicts on the initialize handshake, ping and cancellation. */
import type { CheckResult } from '../../model.ts'
import { isObject, list, notTestable, show, verdict } from '../check.ts'
import { isKnownRevision, spec, UNSUPPORTED_REVISION } from '../spec.ts'
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

export function judgeInitialize(outcome: RpcOutcome, requested: string): { checks: CheckResult[]; session?: Session } {
  const id = 'lifecycle/initialize'
  const title = 'initialize returns a valid InitializeResult'
  const ref = spec(requested, 'lifecycle#initialization')
  const wire = outcome.wire
  if (outcome.kind !== 'result') {
    // An unreachable URL is the caller's problem, not a verdict on the server.
    const status = outcome.kind === 'closed' && outcome.unreachable ? 'error' : 'fail'
    return { checks: [verdict(id, title, status, `initialize got ${describeOutcome(outcome)}`, { spec: ref, wire })] }
  }
  const result = outcome.result
  const problems: string[] = []
  if (!isObject(result)) problems.push('the result is not an object')
  else {
    if (typeof result.protocolVersion !== 'string') problems.push('"protocolVersion" is not a string')
    if (!isObject(result.capabilities)) problems.push('"capabilities" is not an object')
    if (!isObject(result.serverInfo)) problems.push('"serverInfo" is not an object')
  }
  if (problems.length > 0 || !isObject(result)) {
    return { checks: [verdict(id, title, 'fail', `InitializeResult is malformed: ${problems.join('; ')}`, { spec: ref, wire })] }
  }
  const negotiated = result.protocolVersion as string
  const version = isKnownRevision(negotiated) ? negotiated : requested
  const session: Session = {
    requested,
    version,
    capabilities: result.capabilities as Record<string, unknown>,
    serverInfo: result.serverInfo as Record<string, unknown>,
  }
  const checks = [
    verdict(id, title, 'pass', 'protocolVersion, capabilities and serverInfo are present and well-typed', { spec: ref, wire }),
    judgeNegotiated(negotiated, requested, wire),
    judgeServerInfo(session.serverInfo, version),
    judgeCapabilities(session.capabilities, version),
  ]
  return { checks, session }
}

function judgeNegotiated(negotiated: string, requested: string, wire: unknown[]): CheckResult {
  const id = 'lifecycle/protocol-version'
  const title = 'the negotiated protocol version is one the server can speak'
  const evidence = { spec: spec(requested, 'lifecycle#version-negotiation'), details: { requested, negotiated }, wire }
  if (!REVISION_FORMAT.test(negotiated)) return verdict(id, title, 'fail', `protocolVersion ${show(negotiated)} is not a protocol revision`, evidence)
  if (negotiated === requested) return verdict(id, title, 'pass', `the server agreed to the requested revision ${requested}`, evidence)
  if (isKnownRevision(negotiated)) {
    return verdict(id, title, 'pass', `the server does not speak ${requested} and counter-offered ${negotiated}; checks follow ${negotiated}`, evidence)
  }
  return verdict(id, title, 'error', `the server answered ${show(negotiated)}, a revision this kit cannot judge; checks follow ${requested}`, evidence)
}

function judgeServerInfo(info: Record<string, unknown>, version: string): CheckResult {
  const problems = ['name', 'version'].filter((key) => typeof info[key] !== 'string' || info[key] === '')
  return verdict(
    'lifecycle/server-info',
    'serverInfo names the implementation and its version',
    problems.length ? 'fail' : 'pass',
    problems.length ? `serverInfo lacks a non-empty string ${problems.map((p) => `"${p}"`).join(' and ')}` : `${show(info.name)} ${show(info.version)}`,
    { spec: spec(version, 'lifecycle#initialization'), details: info },
  )
}

function judgeCapabilities(capabilities: Record<string, unknown>, version: string): CheckResult {
  const declared = CAPABILITY_KEYS.filter((key) => key in capabilities)
  const malformed = declared.filter((key) => !isObject(capabilities[key]))
  const evidence = { spec: spec(version, 'lifecycle#capability-negotiation'), details: capabilities }
  const title = 'declared capabilities are objects'
  if (malformed.length) return verdict('lifecycle/capabilities', title, 'fail', `capabilities ${list(malformed)} must be objects`, evidence)
  const summary = declared.length ? `declares ${list(declared, 10)}` : 'declares no capabilities'
  return verdict('lifecycle/capabilities', title, 'pass', summary, evidence)
}

/** Asking for a revision nobody supports must yield a counter-offer, not an echo. */
export function judgeUnsupportedVersion(outcome: RpcOutcome | undefined, why: string | undefined, version: string): CheckResult {
  const id = 'lifecycle/unsupported-version'
  const title = `initialize with unsupported revision ${UNSUPPORTED_REVISION} gets a counter-offer`
  const ref = spec(version, 'lifecycle#version-negotiation')
  if (!outcome) return notTestable(id, title, why ?? 'no second connection could be opened', { spec: ref })
  const wire = outcome.wire
  if (outcome.kind === 'error') {
    // The spec's own error-handling example answers an unknown version with an error, but the
    // normative text asks for a counter-offer, so an error is tolerated with a warning.
    return verdict(id, title, 'warn', `the server refused with ${describeOutcome(outcome)} instead of offering a revision it supports`, { spec: ref, wire })
  }
  if (outcome.kind !== 'result') return verdict(id, title, 'fail', `initialize got ${describeOutcome(outcome)}`, { spec: ref, wire })
  const offered = isObject(outcome.result) ? outcome.result.protocolVersion : undefined
  if (offered === UNSUPPORTED_REVISION) {
    return verdict(id, title, 'fail', `the server echoed ${UNSUPPORTED_REVISION} although it cannot support it`, { spec: ref, wire })
  }
  if (typeof offered !== 'string' || !REVISION_FORMAT.test(offered)) {
    return verdict(id, title, 'fail', `the server offered ${show(offered)}, which is not a protocol revision`, { spec: ref, wire })
  }
  return verdict(id, title, 'pass', `the server counter-offered ${offered}`, { spec: ref, wire })
}

export function judgePing(outcome: RpcOutcome, version: string): CheckResult {
  const id = 'lifecycle/ping'
  const title = 'ping is answered with an empty result'
  const evidence = { spec: spec(version, 'ping'), wire: outcome.wire }
  if (outcome.kind !== 'result') return verdict(id, title, 'fail', `ping got ${describeOutcome(outcome)}`, evidence)
  if (!isObject(outcome.result)) return verdict(id, title, 'fail', 'the ping result is not an object', evidence)
  const extra = Object.keys(outcome.result).filter((key) => key !== '_meta')
  if (extra.length) return verdict(id, title, 'warn', `the ping result should be empty but carries ${list(extra)}`, evidence)
  return verdict(id, title, 'pass', 'answered with {}', evidence)
}

/**
 * A cancellation for a request id the server never saw must be ignored: no response to the
 * notification, and the server keeps answering.
 */
export function judgeCancelUnknown(sent: NotifyOutcome, ping: RpcOutcome, straysAfter: unknown[], version: string): CheckResult {
  const id = 'lifecycle/cancel-unknown-request'
  const title = 'notifications/cancelled for an unknown request is tolerated'
  const wire = [...sent.wire, ...ping.wire]
  const evidence = { spec: spec(version, 'cancellation'), wire }
  if (!sent.ok) {
    // Refusing it with an HTTP error is a response of sorts; the spec only says it SHOULD be ignored.
    const refused = sent.http?.status !== undefined
    return verdict(id, title, refused ? 'warn' : 'fail', `the notification was not accepted: ${sent.reason ?? 'unknown reason'}`, evidence)
  }
  if (straysAfter.length > 0) {
    return verdict(id, title, 'fail', 'the server answered the notification (receivers must not respond to notifications)', {
      ...evidence,
      spec: spec(version, 'messages#notifications'),
      wire: [...wire, ...straysAfter.map((message) => ({ dir: 'server→client', message }))],
    })
  }
  if (ping.kind !== 'result') return verdict(id, title, 'fail', `the server stopped answering: a ping afterwards got ${describeOutcome(ping)}`, evidence)
  return verdict(id, title, 'pass', 'ignored, and a ping afterwards was answered', evidence)
}
