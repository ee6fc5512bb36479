/**
 * Runs every server check against one target and returns its SuiteResult. Never throws and
 * never hangs: each exchange is bounded, and anything unexpected becomes an `error` check.
 */
import { configSecrets, createRedactor } from '@mcp-bridge/process'
import { withCredentialsAsHeader } from '@mcp-bridge/plugin/rules'
import type { CheckResult, SuiteResult } from '../model.ts'
import { redactCheck } from '../report/redact.ts'
import type { ServerSuite, SuiteRevision } from '../report/revisions.ts'
import { verdict } from './check.ts'
import { CLIENT_INFO } from './client-info.ts'
import { judgeEnvelope, judgeServerNotifications, judgeServerRequests } from './evaluate/envelope.ts'
import { judgeInitializeFirst } from './evaluate/initialize-first.ts'
import { judgeCancelMalformed, judgeCancelUnknown, judgeInitialize, judgePing, judgeUnsupportedVersion, type Session } from './evaluate/lifecycle.ts'
import { judgeMetaKeys } from './evaluate/meta-keys.ts'
import { classifyNotifications, judgeNotifications } from './evaluate/notifications.ts'
import { judgeStdio } from './evaluate/stdio.ts'
import { probeInvalidCursor } from './probe/cursor.ts'
import { asksForAuthorization, judgeAuth, judgeModernAuth, type AuthObservation } from './evaluate/auth.ts'
import { probeAuth } from './probe/auth.ts'
import { probeFeatures } from './probe/features.ts'
import { probeHttp } from './probe/http.ts'
import { listen } from './probe/listen.ts'
import { probeTasks } from './probe/tasks.ts'
import { probeTools, toolsNotDeclared } from './probe/tools.ts'
import { CheckLog } from './settle.ts'
import { initializeNotJudged } from './modern/evaluate.ts'
import { detectEra, runModern, runPinnedModern } from './modern/run.ts'
import { judgeModernStdio } from './modern/stdio.ts'
import { isModernRevision, LATEST_MODERN_REVISION, LATEST_REVISION, UNSUPPORTED_REVISION, type ModernRevision } from './spec.ts'
import { describeTarget, type ServerTarget } from './target.ts'
import { HttpWire } from './wire/http.ts'
import { StdioWire, type StdioShutdown } from './wire/stdio.ts'
import { DEFAULT_SERVER_OPTIONS, type ServerRunOptions } from './options.ts'
import type { Ledger } from './wire/ledger.ts'
import type { ServerWire } from './wire/server-wire.ts'
import type { RpcOutcome } from './wire/types.ts'


export { DEFAULT_SERVER_OPTIONS, type ServerRunOptions }

export function initializeParams(protocolVersion: string): Record<string, unknown> {
  // No client capabilities: a server request for sampling, elicitation or roots is then the server's fault.
  return { protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO }
}

export async function runServerSuite(target: ServerTarget, overrides: Partial<ServerRunOptions> = {}): Promise<SuiteResult> {
  const options = { ...DEFAULT_SERVER_OPTIONS, ...overrides }
  const started = performance.now()
  // Redacted where it enters the report model, so the console line and every report agree.
  const redact = createRedactor(targetSecrets(target))
  const log = new CheckLog((check) => redactCheck(check, redact), options.onCheck)
  const emit = (...items: CheckResult[]) => {
    for (const item of items) log.add(item)
  }
  let negotiation: Negotiation = {}
  try {
    negotiation = await runChecks(target, options, emit)
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
    emit(verdict('harness/unexpected', 'the harness completed the run', 'error', `the harness failed: ${message.slice(0, 1_000)}`))
  }
  const checks = log.finish()
  const suite: ServerSuite = {
    id: options.revision ? `server@${options.revision}` : 'server',
    title: redact(`Server checks${options.revision ? ` (${options.revision})` : ''}: ${describeTarget(target)}`),
    kind: 'server',
    target: redact(describeTarget(target)),
    transport: target.kind,
    checks,
    durationMs: Math.round(performance.now() - started),
  }
  if (options.revision) {
    // The server's own string: bounded, and redacted like everything else it sent.
    const negotiated = negotiation.offered === undefined ? undefined : redact(negotiation.offered.slice(0, 40))
    const revision: SuiteRevision = { requested: options.revision, ...(negotiated !== undefined ? { negotiated } : {}), supported: negotiation.stopped === undefined }
    suite.revision = revision
  }
  return suite
}

/** What initialize settled: the revision the server answered with, and why a pinned run stopped there. */
interface Negotiation {
  offered?: string
  stopped?: string
}

/** What the target's configuration holds that no report may show: header values, URL credentials, env values. */
function targetSecrets(target: ServerTarget): string[] {
  return target.kind === 'http' ? configSecrets({ headers: target.headers, url: target.url }) : configSecrets({ env: target.env ?? {} })
}

async function open(target: ServerTarget, options: ServerRunOptions): Promise<ServerWire | { error: string }> {
  if (target.kind === 'http') {
    // fetch refuses a URL with user-info (quoting it, password included): send it as Basic, as the plugin does.
    const { url, headers } = withCredentialsAsHeader(target.url, target.headers)
    return new HttpWire({ url: url.href, headers }, options.requestTimeoutMs)
  }
  return StdioWire.start(target)
}

async function runChecks(target: ServerTarget, options: ServerRunOptions, emit: (...checks: CheckResult[]) => void): Promise<Negotiation> {
  const wire = await open(target, options)
  if ('error' in wire) {
    emit(verdict('lifecycle/initialize', 'initialize returns a valid InitializeResult', 'error', wire.error))
    return {}
  }
  const requested = isModernRevision(options.revision) ? LATEST_REVISION : (options.revision ?? LATEST_REVISION)
  let version: string = requested
  const negotiation: Negotiation = {}
  // The second connection's server process, judged for what it left behind with the first's.
  const otherShutdowns: StdioShutdown[] = []
  // Connections opened to probe a server's era, closed with the run's own.
  const probes: ServerWire[] = []
  // A server of modern revisions only, or a run pinned to one: the legacy transport checks do not judge it (see modern/).
  let modernOnly = false
  // The modern revision the run judged, whose own stdio sentences then judge the process.
  let modernJudged: ModernRevision | undefined
  // First, as a client without credentials meets the server; judged once the revision is known.
  const auth = wire.http ? await probeAuth(wire.http.target.url, options.requestTimeoutMs) : undefined
  // A fresh connection to the same server: for the era probe of a stdio server that exited, and for modern/stateless.
  const reopen = async () => {
    const fresh = await open(target, options)
    if ('error' in fresh) return undefined
    probes.push(fresh)
    return fresh
  }
  try {
    if (isModernRevision(options.revision)) {
      // Pinned to a modern revision: no initialize; its server/discover decides (modern/run.ts).
      modernOnly = true
      const { checks, spoken } = await runPinnedModern(wire, options.revision, options.requestTimeoutMs, options.calls, reopen)
      emit(...checks)
      if (spoken) modernJudged = options.revision
      if (!spoken) negotiation.stopped = `the server does not speak ${options.revision}`
      return negotiation
    }
    const init = await wire.request('initialize', initializeParams(requested), options.startupTimeoutMs)
    if (init.kind === 'error') {
      const detection = await detectEra(wire, init, LATEST_MODERN_REVISION, options.requestTimeoutMs, reopen)
      const { era } = detection
      if (era.era === 'modern-only') {
        modernOnly = true
        if (options.revision === undefined) {
          emit(...(await runModern({ ...detection, era }, init, requested, options.requestTimeoutMs, options.calls, reopen)))
          modernJudged = era.revision
        }
        else {
          // Pinned to a legacy revision the server does not speak: nothing of it to judge.
          emit(initializeNotJudged(requested, era.supported, init))
          negotiation.stopped = `the server speaks only ${era.supported.join(', ')}`
        }
        return negotiation
      }
    }
    const { checks, session, offered, stopped } = judgeInitialize(withStderr(init, wire), requested, options.revision !== undefined)
    emit(...checks)
    if (offered !== undefined) negotiation.offered = offered
    if (stopped) negotiation.stopped = stopped
    if (session) {
      version = session.version
      await runSession(wire, target, session, options, emit, otherShutdowns)
    } else {
      // Whatever the server did send is judged by the envelope rules, so a broken reply to
      // initialize is named as what it is. A pinned run that stopped judges nothing else for
      // its revision, so it reports only the rules the server broke.
      if (wire.ledger.counts.messages > 0) emit(...judgeEnvelope([wire.ledger], version, stopped !== undefined))
    }
  } finally {
    // A pinned run that stopped judges nothing else for its revision, unless it stopped at the
    // server's demand for credentials; no HTTP answer at all is initialize's harness error.
    const judged = auth && auth.anonymous.status !== undefined && (negotiation.stopped === undefined || asksForAuthorization(auth))
    if (auth && judged) emit(...authChecks(auth, options.revision, modernOnly, version))
    for (const probe of probes) await probe.end(options.exitGraceMs)
    const shutdown = await wire.end(options.exitGraceMs)
    if (wire.stdio && shutdown) emit(...judgeProcess(wire.stdio, shutdown, options, otherShutdowns, modernOnly ? modernJudged : version))
  }
  return negotiation
}

/**
 * Judges an ended stdio server's process by the stdio sentences of the revision it spoke:
 * a legacy one's (they cite 2025-11-25), the modern one judged, or none for a server that speaks
 * only modern revisions the run did not judge.
 */
function judgeProcess(wire: StdioWire, shutdown: StdioShutdown, options: ServerRunOptions, otherShutdowns: StdioShutdown[], spoken: string | undefined): CheckResult[] {
  const utf8 = { invalidUtf8Count: wire.invalidUtf8Count, invalidUtf8: wire.invalidUtf8 }
  const observation = { linesSeen: wire.linesSeen, noiseCount: wire.noiseCount, noise: wire.noise, ...utf8, shutdown, otherShutdowns, graceMs: options.exitGraceMs, stderrTail: wire.stderrTail() }
  if (spoken === undefined) return []
  return isModernRevision(spoken) ? judgeModernStdio(observation, spoken) : judgeStdio(observation, spoken)
}

/**
 * The authorization checks of the revision judged: a modern server's, or the negotiated one (the
 * requested one when the server, asking for credentials, negotiated none). A run pinned to a
 * legacy revision the server does not speak judges nothing of it.
 */
function authChecks(auth: AuthObservation, pinned: string | undefined, modernOnly: boolean, version: string): CheckResult[] {
  if (!modernOnly) return judgeAuth(auth, version)
  return pinned === undefined || isModernRevision(pinned) ? judgeModernAuth(auth) : []
}

async function runSession(wire: ServerWire, target: ServerTarget, session: Session, options: ServerRunOptions, emit: (...checks: CheckResult[]) => void, otherShutdowns: StdioShutdown[]): Promise<void> {
  const v = session.version
  const timeout = options.requestTimeoutMs
  if (wire.http) wire.http.protocolVersion = v
  // From here on every notification is judged as it arrives, and only the first few are kept.
  classifyNotifications([wire.ledger], session.capabilities, v)
  const initialized = await wire.notify('notifications/initialized')
  const ping = judgePing(await wire.request('ping', undefined, timeout), v)
  emit(ping)

  const cancelled = await wire.notify('notifications/cancelled', { requestId: 'mcp-conformance-never-sent', reason: 'conformance probe' })
  const pingAfter = await wire.request('ping', undefined, timeout)
  const unknown = judgeCancelUnknown(cancelled, pingAfter, v, ping.status)
  emit(unknown)

  // No request id is an object: a notification no revision's schema reads.
  const malformed = await wire.notify('notifications/cancelled', { requestId: { malformed: true }, reason: 'conformance probe' })
  emit(judgeCancelMalformed(malformed, await wire.request('ping', undefined, timeout), v, ping.status, unknown.status))

  const second = await unsupportedVersion(target, options)
  if (second.shutdown) otherShutdowns.push(second.shutdown)
  emit(judgeUnsupportedVersion(second.outcome, second.why, v))

  // Held open while the kit makes its calls, so what the server sends on it is judged (probe/listen.ts).
  const listener = wire.http ? listen(wire.http) : undefined
  const hasTools = typeof session.capabilities.tools === 'object' && session.capabilities.tools !== null
  const toolOptions = { requestTimeoutMs: timeout, calls: options.calls, ...(options.serverName ? { serverName: options.serverName } : {}) }
  const listed = [...(hasTools ? await probeTools(wire, session, toolOptions) : await toolsNotDeclared(wire, session, toolOptions)), ...(await probeFeatures(wire, session, timeout))]
  emit(...listed, await probeInvalidCursor(wire, session, timeout, listed))
  emit(...(await probeTasks(wire, session, { requestTimeoutMs: timeout, calls: options.calls })))
  if (wire.http) emit(...(await probeHttp(wire.http, v, initialized, timeout, listener)))

  // Judged last, over everything both connections carried, so every exchange above counts.
  const ledgers = [wire.ledger, second.ledger].filter((l): l is Ledger => l !== undefined)
  emit(...judgeEnvelope(ledgers, v), ...judgeMetaKeys(ledgers, v), ...judgeServerRequests(ledgers, v), judgeInitializeFirst(ledgers, v), judgeServerNotifications(ledgers, session.capabilities, v), ...judgeNotifications(ledgers, v, session.capabilities))
}

/** A fresh connection that asks for a revision no server supports, then is closed again. */
async function unsupportedVersion(target: ServerTarget, options: ServerRunOptions): Promise<{ outcome?: RpcOutcome; why?: string; ledger?: Ledger; shutdown?: StdioShutdown }> {
  const wire = await open(target, options)
  if ('error' in wire) return { why: wire.error }
  let outcome: RpcOutcome
  let shutdown: StdioShutdown | undefined
  try {
    outcome = await wire.request('initialize', initializeParams(UNSUPPORTED_REVISION), options.startupTimeoutMs)
  } finally {
    // Ended however the request went; a stdio server's shutdown is judged with the first connection's.
    shutdown = await wire.end(options.exitGraceMs)
  }
  return { outcome, ledger: wire.ledger, ...(shutdown ? { shutdown } : {}) }
}

/** A stdio server that died during initialize usually said why on stderr: keep it as evidence. */
function withStderr(outcome: RpcOutcome, wire: ServerWire): RpcOutcome {
  if (!wire.stdio || outcome.kind === 'result' || outcome.kind === 'error') return outcome
  const tail = wire.stdio.stderrTail().trim()
  if (!tail) return outcome
  return { ...outcome, wire: [...outcome.wire, { dir: 'server→client', message: `[stderr] ${tail.slice(-1_500)}` }] }
}
