import { join, dirname } from 'node:path'
import { readHttpLog } from '@mcp-bridge/fixtures-server'
import { configSecrets, createRedactor, type Redact, withinDeadline } from '@mcp-bridge/process'
import { Config, type StdioConfig } from '@mcp-bridge/plugin'
import type { CheckResult, SuiteResult } from '../model.ts'
import { redactSuite } from '../report/redact.ts'
import { formatModelTranscript, formatWireTranscript, type ModelEvent } from '../transcript/format.ts'
import { buildTranscript, stepLabel } from '../transcript/timeline.ts'
import type { ClientAdapter, ClientSession } from './adapter.ts'
import { callExpectationFor, scenarioNotApplicable } from './applicability.ts'
import { callMismatches } from './expectations.ts'
import { FixtureHandle } from './fixture.ts'
import { checkHttpInvariants, negotiatedVersions } from './http-invariants.ts'
import { checkPings } from './ping.ts'
import { evaluateDuration, type Duration } from './durations.ts'
import { clientEras, type RunEra } from './eras.ts'
import { checkInvariants } from './invariants.ts'
import { checkModernInvariants } from './modern-invariants.ts'
import type { LoadedScenario } from './load.ts'
import { Observer } from './observe.ts'
import { checkShutdown, reportedProcesses, survivors } from './processes.ts'
import { DriverError } from './driver/channel.ts'
import { describeProcess, killWithGroups } from './driver/processes.ts'
import { boundMessage, HARNESS_MS, scenarioBound, SETTLE_SLACK_MS, type BoundSettings } from './run-bound.ts'
import { checkTaskNegotiation } from './task-negotiation.ts'
import { clientSpec, runRevision } from './rules.ts'
import type { CallExpectation, CallSpec, Scenario, WaitSpec } from './scenario.ts'
import { waitForQuiet } from './settle.ts'
import { compareSnapshot } from './snapshot.ts'
import { resolveTargetRefs } from './target-refs.ts'
import { TimelineRecorder } from './timeline.ts'
import { checkTimings, driverBounds, type Measured } from './timing.ts'
import { checkExpectationsFor, INFORMATION, verdictsFor } from './verdicts.ts'

export interface RunOptions {
  updateSnapshots: boolean
  /** The fixture's protocol era for this run (one of the scenario's `eras`); legacy by default. */
  era?: RunEra
  /** Replaces the outer bound derived from the scenario (run-bound.ts); for the kit's own tests. */
  outerBoundMs?: number
}

/** Thrown by a step that cannot go on (a wait that timed out); the run skips to teardown. */
class StepFailed extends Error {}

/** Thrown when the scenario does not apply to the client under test; the run skips to teardown. */
class NotApplicable extends Error {}

/**
 * One scenario over one transport against one client. Never throws: everything that goes wrong
 * becomes a check, and teardown (dispose, orphan check, fixture close) always runs.
 */
export async function runScenario({ file, scenario }: LoadedScenario, transport: 'stdio' | 'http', adapter: ClientAdapter, options: RunOptions): Promise<SuiteResult> {
  const started = performance.now()
  const checks: CheckResult[] = []
  const events: ModelEvent[] = []
  const era = options.era ?? 'legacy'
  // The run's name in messages and files: the transport, and the era when it is not legacy.
  const label = runLabel(transport, era)
  const fixture = new FixtureHandle(scenario.server, transport, era)
  // Checks, wire excerpts and snapshots never show what the scenario configured as a secret.
  const redact = scenarioRedactor(scenario)
  const observer = new Observer()
  const recorder = new TimelineRecorder(fixture.wireFile)
  // Whether the HTTP server was down when the client closed (a DELETE is then owed to no one).
  let serverGone = false
  fixture.onLifecycle = (what, text) => {
    serverGone = what === 'exit'
    recorder.process(what, text)
  }
  const restoreEnv = setEnv(scenario.hostEnv)
  let session: ClientSession | undefined
  let disposed = false
  const kind = adapter.kind ?? 'bridge'
  let notApplicable: string | undefined
  let offeredAtStart = new Set<string>()
  let callIndex = 0
  // Time is evidence: the start, each step and the whole run, on the runner's monotonic clock.
  const measured: Measured = { stepMs: [] }
  // The outer bound (run-bound.ts): past it the run is cut short, a harness error, never a hang.
  // A driven client's waits are the kit's bounds on its driver, as the driver adapter sets them for this config.
  const derived = scenarioBound(scenario, boundDefaults(), kind === 'client' ? driverBounds(scenario.client) : undefined)
  const bound = options.outerBoundMs === undefined ? derived : { ...derived, ms: options.outerBoundMs, terms: 'set by the caller' }
  let at = 'the client start'
  let cut = false
  const main = async () => {
    try {
      recorder.step(0, 'the client starts')
      const target = await fixture.target()
      // `{fixture.origin}` in the config (an OAuth issuer) is the fixture's, known only once it listens.
      const client = resolveTargetRefs(scenario.client, target)
      const startAt = performance.now()
      const started = await adapter.start(target, client)
      // A start that returned after the run was cut short: nothing will judge it, so it ends here.
      if (cut) return void (await started.dispose().catch(() => {}))
      session = started
      measured.startMs = Math.round(performance.now() - startAt)
      // A driver that never answered connect, while its client never reached the fixture, never
      // drove anything: a harness problem. One that reached it and hung there is the client's.
      if (session.connectUnanswered?.() && !fixtureReached(fixture)) throw new DriverError(`the driver never answered "connect" and its client never reached the server: ${session.logs().at(-1) ?? ''}`)
      observer.watch(session)
      recorder.watch(session)
      events.push({ kind: 'tools', tools: session.tools() })
      offeredAtStart = new Set(session.tools().map((tool) => tool.rawName))
      // Known only once connected: a driver declares what its client does in its connect answer.
      notApplicable = scenarioNotApplicable(scenario, kind, session.features?.() ?? [])
      if (notApplicable) throw new NotApplicable()
      const expectsDuplicate = scenario.expect.duplicateServerNameRejected !== undefined || scenario.expect.duplicateServerNameMessage !== undefined
      const duplicate = expectsDuplicate ? await adapter.rejectsDuplicate?.(session, target, client) : undefined
      try {
        for (const [stepIndex, step] of scenario.steps.entries()) {
          if (cut) return
          at = `step ${stepIndex + 1} (${stepLabel(step)})`
          recorder.step(stepIndex + 1, stepLabel(step), 'call' in step ? { call: callIndex + 1 } : {})
          const stepAt = performance.now()
          const ran = await runStep(step, stepIndex)
          // A call that could not reach the server took no time worth judging.
          if (ran !== 'not-reached') measured.stepMs[stepIndex] = Math.round(performance.now() - stepAt)
        }
      } catch (error) {
        if (!(error instanceof StepFailed)) throw error
        recorder.stepFailed()
        checks.push({ id: 'steps/completed', title: 'Every step ran', status: 'fail', message: error.message, spec: scenario.spec[0] })
      }
      // The behaviour's settle window: a late retry or re-list must count against the bounds below.
      if (scenario.settle !== undefined && !disposed) {
        at = `the settle window (${scenario.settle})`
        const quietMs = durationMs(scenario.settle, scenario.client)
        const quiet = await waitForQuiet(fixture.wireFile, quietMs, quietMs + SETTLE_SLACK_MS)
        checks.push({
          id: 'expect/settled',
          title: 'The client settles before its end state is judged',
          status: quiet ? 'pass' : 'fail',
          message: quiet ? `the wire was quiet for ${quietMs} ms (settle: ${scenario.settle})` : `the wire was never quiet for ${quietMs} ms (settle: ${scenario.settle}) within ${quietMs + SETTLE_SLACK_MS} ms`,
          spec: scenario.spec[0],
        })
      }
      at = 'the end-of-run expectations'
      recorder.step(scenario.steps.length + 1, 'expectations judged, the client disposed, invariants', { end: true })
      if (disposed) {
        checks.push({ id: 'expect/end-state', title: 'End-of-run expectations', status: 'skip', message: 'the scenario disposed the client in a step, so there is no end state to judge', spec: scenario.spec[0] })
      } else {
        events.push({ kind: 'tools', tools: session.tools() })
        checks.push(
          ...checkExpectationsFor(scenario, kind, {
            tools: session.tools(),
            logs: session.logs(),
            state: session.state(),
            wire: fixture.wire(),
            attachments: session.attachmentCount(),
            duplicateRejected: duplicate?.rejected,
            duplicateMessage: duplicate?.message,
            http: transport === 'http' ? readHttpLog(fixture.wireFile) : undefined,
            // A server whose stdin the client has just closed is given a moment to exit (survivors()):
            // one that is on its way out is not one the client keeps running.
            // The client's own view counts too: a server still starting has not reported itself yet.
            serversRunning:
              transport === 'stdio' && scenario.expect.running !== undefined ? await survivors([...new Set([...reportedProcesses(fixture.wireFile).servers, ...session.pids()])]) : undefined,
          }),
        )
      }
      measured.totalMs = Math.round(performance.now() - startAt)
    } catch (error) {
      if (error instanceof NotApplicable) checks.push({ id: 'applies/scenario', title: 'The scenario applies to this client', status: 'skip', message: `not applicable: ${notApplicable}` })
      else checks.push({ id: 'harness/run', title: 'The scenario could run', status: 'error', message: error instanceof DriverError ? error.message : ((error as Error).stack ?? String(error)) })
    }
  }
  const finished = await withinDeadline(main(), bound.ms)
  restoreEnv()
  if (!finished) {
    cut = true
    checks.push({ id: 'harness/bound', title: 'The scenario run ends within its outer bound', status: 'error', message: boundMessage(scenario.id, label, bound, at) })
  }

  const disposeAt = performance.now()
  const disposedInStep = disposed
  // Bounded too: a dispose that never ends must not hold the run (nor the next one) either.
  const disposing = session ? await withinDeadline(dispose().catch(() => []), bound.disposeMs) : { value: [] }
  if (!disposing) checks.push({ id: 'harness/bound', title: 'The client is disposed within its bound', status: 'error', message: `scenario ${scenario.id} [${label}]: the client's dispose did not end within ${bound.disposeMs} ms; its processes were stopped` })
  const afterDispose = disposing?.value ?? []
  if (session && !disposedInStep) {
    measured.disposeMs = session.closeMs?.() ?? Math.round(performance.now() - disposeAt)
    if (session.closeFinished?.() === false) measured.disposeUnfinished = true
  }
  const goneAtClose = serverGone
  await withinDeadline(fixture.close().catch(() => {}), HARNESS_MS)
  // Every server process the client started, as each reported itself, its children included.
  const reported = reportedProcesses(fixture.wireFile)
  const known = [...new Set([...observer.pids, ...reported.servers, ...reported.children])]
  const orphans = [...new Set([...(await survivors(known)), ...(session?.orphans?.() ?? [])])]
  // Left by the driver's tree beyond the servers judged here (a process it started in a new session).
  const leftovers = (session?.leftovers?.() ?? []).filter((pid) => !orphans.includes(pid) && !known.includes(pid))
  const leftoverNames = leftovers.map(describeProcess)
  // Judged: now they are stopped, with their process groups, so no run leaves a process behind.
  killWithGroups([...orphans, ...leftovers])
  // SIGKILL lands at once, the exit a moment later: the run ends once they are gone (bounded at 1 s).
  await survivors([...orphans, ...leftovers])
  const observed = recorder.stop()
  const violations = session?.protocolViolations?.() ?? []
  // A broken harness (a driver that crashed, broke the protocol or never connected) gives no verdicts.
  const harnessBroken = violations.length > 0 || checks.some((check) => check.status === 'error')
  if (harnessBroken) checks.splice(0, checks.length, ...checks.filter((check) => check.status === 'error'))
  // Every verdict cites the revision the client negotiated (rules.ts), and only its rules are judged.
  const revision = runRevision(fixture.wire())
  const spoke = session ? clientEras(fixture.wire()) : []
  if (session && !notApplicable && !harnessBroken) {
    const wire = fixture.wire()
    checks.push(...checkTimings(scenario, measured))
    const noProcesses = transport === 'http' ? 'over HTTP the client starts no server process (the fixture runs in the kit)' : undefined
    checks.push(...checkInvariants({ snapshots: observer.snapshots, wire, afterDispose, orphans, processes: known.length, noProcesses, quarantined: scenario.expect.quarantined }))
    // Only where tasks came up at all (the server declared them, or a call asked for one).
    checks.push(...checkTaskNegotiation(wire))
    // Only where the server pinged.
    checks.push(...checkPings(wire, revision))
    if (scenario.expect.shutdown && transport === 'stdio') checks.push(checkShutdown(scenario.expect.shutdown, reported, orphans, revision))
    // Session rules are the legacy era's: a client that spoke only 2026-07-28 has no session to keep.
    const spokeLegacy = era === 'legacy' || clientEras(wire).includes('legacy')
    if (transport === 'http') checks.push(...checkHttpInvariants(readHttpLog(fixture.wireFile), { serverGone: goneAtClose, negotiated: negotiatedVersions(wire), revision, spokeLegacy }))
    if (era !== 'legacy') checks.push(...checkModernInvariants(wire, transport === 'http' ? readHttpLog(fixture.wireFile) : undefined, era))
    checks.push(snapshotCheck(file, scenario, label, events, wire, options, redact))
  }
  if (violations.length) checks.push({ id: 'harness/driver', title: 'The driver speaks the driver protocol', status: 'error', message: violations.slice(0, 3).join('; ') })
  if (leftoverNames.length) {
    checks.push({ id: 'harness/leftover-processes', title: 'The driver leaves no process behind', status: 'skip', message: `Information: the driver's process tree left ${leftoverNames.length} process(es) running after it ended, which the kit stopped: ${leftoverNames.join('; ')}` })
  }
  // For the report's diagram (redactSuite below covers it like the checks).
  const text = session ? transcriptText(scenario, label, events, fixture.wire()) : ''
  const transcript = buildTranscript(observed, text, transport)
  // A driven client that spoke only the legacy era to a modern-only fixture cannot reach it, which
  // says nothing of its conformance: MCP 2026-07-28 (basic/versioning, Terminology) lets an
  // implementation be legacy. Judged at the modern era only once it speaks 2026-07-28.
  if (era === 'modern' && kind === 'client' && !notApplicable && !checks.some((c) => c.status === 'error') && !clientEras(fixture.wire()).includes('modern')) {
    checks.splice(0, checks.length, { id: 'applies/scenario', title: 'The scenario applies to this client', status: 'skip', message: 'not applicable: the client spoke only the legacy era (MCP 2025-11-25 and before), and this run\'s server speaks only 2026-07-28' })
  }
  fixture.removeFiles()
  // A client is judged only on what holds for every MCP client: the rest is a skip that says why.
  const judged = verdictsFor(scenario, kind, checks, revision)
  return redactSuite(
    {
      id: scenario.id,
      title: scenario.title,
      kind: 'client',
      target: adapter.name,
      transport,
      ...(era !== 'legacy' && { era }),
      ...(spoke.length > 0 && { spoke }),
      checks: judged,
      durationMs: Math.round(performance.now() - started),
      transcript,
    },
    redact,
  )

  async function runStep(step: Scenario['steps'][number], stepIndex: number): Promise<'not-reached' | void> {
    if ('call' in step) return runCall(step.call, ++callIndex)
    else if ('wait' in step) await waitFor(session!, fixture, observableWait(step.wait), scenario.client)
    else if ('kill' in step) await kill(session!, fixture)
    else if ('restart' in step) await fixture.restart()
    else if ('expectTools' in step) expectToolsNow(step.expectTools, stepIndex + 1)
    else if ('squat' in step) {
      if (!adapter.registerForeign) throw new StepFailed('the adapter cannot register a foreign tool')
      await adapter.registerForeign(session!, step.squat)
    } else if ('dispose' in step) await dispose()
  }

  async function runCall(call: CallSpec, index: number): Promise<'not-reached' | void> {
    const tool = session!.tools().find((t) => t.rawName === call.tool)
    // A driven client that does not offer the tool is not asked to call it: the kit never makes
    // up a name for a client to send (and then blames it for sending a name the server never
    // listed). Which tools a client offers its model is its own choice, judged by expect/tools.
    if (kind === 'client' && !tool) return notOffered(call, index)
    const publicName = tool?.name ?? `(no tool for ${call.tool})`
    const controller = new AbortController()
    const timer = call.abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort('the caller aborted the call'), call.abortAfterMs)
    const route = call.route === 'none' ? undefined : adapter.routes[call.route]
    let outcome: Awaited<ReturnType<ClientSession['call']>>
    try {
      outcome = await session!.call(publicName, call.args, { signal: controller.signal, route })
    } finally {
      clearTimeout(timer)
    }
    events.push({ kind: 'call', tool: call.tool, publicName, args: call.args, outcome })
    if (!call.expect) return
    const id = `expect/call-${index}`
    const { expect: judged, dropped } = callExpectationFor(call.expect, kind)
    // A part the scenario marks as information for a client (`applies.info` key `expect/call-N.<field>`) is reported, never a verdict.
    const { expect, informational } = splitInformational(judged, kind === 'client' ? scenario.applies.info : {}, id)
    const problems = callMismatches(outcome, expect)
    const notes = informational.flatMap(({ field, sentence }) => callMismatches(outcome, { [field]: judged[field] }).map((problem) => `${problem} (${sentence})`))
    // The parts that judge our rendering only are named, so a pass never claims more than it checked.
    const unjudged = (dropped.length ? ` (not applicable to this client: ${dropped.join(', ')})` : '') + (notes.length ? `; ${INFORMATION}${notes.join('; ')}` : '')
    // A driven client's call that never returned within the kit's bound is the client's hang (or
    // its driver's: the kit cannot tell), and no MUST: a warning that quotes the SHOULD, unless
    // the scenario quotes its own.
    if (outcome.unanswered && kind === 'client' && !scenario.applies.should[id]) {
      const hung = clientSpec('timeouts/requests', runRevision(fixture.wire()))
      checks.push({ id, title: `Call ${index} (${call.tool}) has the expected outcome`, status: 'warn', message: `${problems.join('; ')} (a SHOULD for clients: ${hung.ref})`, spec: hung, details: { outcome } })
      return
    }
    checks.push({
      id: `expect/call-${index}`,
      title: `Call ${index} (${call.tool}) has the expected outcome`,
      status: problems.length ? 'fail' : 'pass',
      message: (problems.length ? problems.join('; ') : 'as expected') + unjudged,
      spec: scenario.spec[0],
      details: { outcome },
    })
  }

  /**
   * A call of a tool the driven client does not offer, not dispatched. Expected to be unknown
   * (a server that is gone for good): that is what the client shows, judged like an error. Any
   * other expectation is about a behaviour the call would have shown (a timeout, a cancellation):
   * with no call there is nothing to judge, neither a pass nor a failure of it.
   */
  function notOffered(call: CallSpec, index: number): 'not-reached' | void {
    const offered = session!.tools().map((t) => t.rawName)
    const text = `the client does not offer ${call.tool} (it offers ${offered.length ? offered.join(', ') : 'no tools'}${offeredAtStart.has(call.tool) ? `; it offered ${call.tool} once started` : ''}), so the kit did not call it`
    const outcome = { isError: true, code: 'UNKNOWN_TOOL', content: [{ type: 'text' as const, text }] }
    events.push({ kind: 'call', tool: call.tool, publicName: `(not offered: ${call.tool})`, args: call.args, outcome })
    if (call.expect?.code === 'UNKNOWN_TOOL') {
      const problems = callMismatches(outcome, callExpectationFor(call.expect, kind).expect)
      checks.push({ id: `expect/call-${index}`, title: `Call ${index} (${call.tool}) has the expected outcome`, status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : text, spec: scenario.spec[0], details: { outcome } })
      return
    }
    if (call.expect) checks.push({ id: `expect/call-${index}`, title: `Call ${index} (${call.tool}) has the expected outcome`, status: 'skip', message: `nothing to judge: ${text}`, spec: scenario.spec[0], details: { outcome } })
    return 'not-reached'
  }

  function expectToolsNow(expected: string[], stepNumber: number): void {
    const raw = session!.tools().map((t) => t.rawName).sort()
    const wanted = [...expected].sort()
    const same = JSON.stringify(raw) === JSON.stringify(wanted)
    checks.push({
      id: `expect/tools-at-step-${stepNumber}`,
      title: 'The client exposes the expected tools at this step',
      status: same ? 'pass' : 'fail',
      message: same ? `${raw.length} tools as expected` : `expected ${JSON.stringify(wanted)}, got ${JSON.stringify(raw)}`,
      spec: scenario.spec[0],
    })
  }

  /** A client shows no state or log the kit could wait on: those conditions are not waited for. */
  function observableWait(wait: WaitSpec): WaitSpec {
    if (kind === 'bridge') return wait
    const { state: _state, log: _log, ...rest } = wait
    return rest
  }

  async function dispose() {
    if (!session || disposed) return session?.tools() ?? []
    disposed = true
    observer.sample(session)
    observer.stop()
    await session.dispose()
    return session.tools()
  }
}

/** Whether the client reached the fixture at all: a message, an HTTP request or a server process. */
function fixtureReached(fixture: FixtureHandle): boolean {
  return fixture.wire().length > 0 || readHttpLog(fixture.wireFile).length > 0 || reportedProcesses(fixture.wireFile).servers.length > 0
}

async function kill(session: ClientSession, fixture: FixtureHandle): Promise<void> {
  if (fixture.transport === 'http') return fixture.kill()
  for (const pid of session.pids()) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}

/** The fields of a call's expectation a client is judged on, and those that are information for it, each with its sentence. */
function splitInformational(expect: CallExpectation, info: Record<string, string>, id: string): { expect: CallExpectation; informational: Array<{ field: keyof CallExpectation; sentence: string }> } {
  const kept: CallExpectation = { ...expect }
  const informational: Array<{ field: keyof CallExpectation; sentence: string }> = []
  for (const field of ['text', 'notText', 'images', 'structured'] as const) {
    const sentence = info[`${id}.${field}`]
    if (kept[field] === undefined || sentence === undefined) continue
    informational.push({ field, sentence })
    delete kept[field]
  }
  return { expect: kept, informational }
}

let pluginDefaults: BoundSettings | undefined
/**
 * The plugin's own settings where a scenario sets none: the bound is derived from what the client
 * will use. Parsed on the first run only (they are the schema's defaults), a copy per caller.
 */
export function boundDefaults(): BoundSettings {
  if (!pluginDefaults) {
    const { connectTimeoutMs, toolCallTimeoutMs, maxTotalTimeoutMs, killGraceMs } = Config({ transport: 'stdio', serverName: 'kit', command: 'node' }) as StdioConfig
    pluginDefaults = { connectTimeoutMs, toolCallTimeoutMs, maxTotalTimeoutMs, killGraceMs }
  }
  return { ...pluginDefaults }
}

function durationMs(duration: Duration, config: Record<string, unknown>): number {
  const value = evaluateDuration(duration, config)
  // Validated when the scenario loaded (scenario.ts), so an error here is a harness bug.
  if ('error' in value) throw new Error(value.error)
  return value.ms
}

async function waitFor(session: ClientSession, fixture: FixtureHandle, wait: WaitSpec, config: Record<string, unknown>): Promise<void> {
  if (wait.ms !== undefined) return new Promise((resolve) => setTimeout(resolve, wait.ms))
  if (wait.quiet !== undefined) {
    const quietMs = durationMs(wait.quiet, config)
    if (!(await waitForQuiet(fixture.wireFile, quietMs, quietMs + wait.timeoutMs))) throw new StepFailed(`the wire was never quiet for ${quietMs} ms (quiet: ${wait.quiet}) within ${quietMs + wait.timeoutMs} ms`)
  }
  const holds = () => {
    const raw = session.tools().map((t) => t.rawName).sort()
    if (wait.tools && JSON.stringify(raw) !== JSON.stringify([...wait.tools].sort())) return false
    if (wait.state && session.state() !== wait.state) return false
    if (wait.log && !session.logs().some((line) => new RegExp(wait.log!).test(line))) return false
    if (wait.received && fixture.wire().filter(({ dir, msg }) => dir === 'recv' && (msg as { method?: string }).method === wait.received).length < wait.count) return false
    return true
  }
  const deadline = Date.now() + wait.timeoutMs
  // Tool changes are evented; states, logs and the wire are polled at a short interval.
  while (!holds()) {
    if (Date.now() > deadline) {
      const { timeoutMs, count: _count, ...condition } = wait
      throw new StepFailed(`waited ${timeoutMs} ms for ${JSON.stringify(condition)}; tools ${JSON.stringify(session.tools().map((t) => t.rawName))}, state ${session.state()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function setEnv(vars: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]))
  Object.assign(process.env, vars)
  return () => {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
}

/** `stdio`, or `stdio.modern` for a run at another era than legacy: the run's label and its snapshot's middle name. */
export function runLabel(transport: 'stdio' | 'http', era: RunEra): string {
  return era === 'legacy' ? transport : `${transport}.${era}`
}

function snapshotCheck(
  file: string,
  scenario: Scenario,
  transport: string,
  events: ModelEvent[],
  wire: Parameters<typeof formatWireTranscript>[0],
  options: RunOptions,
  redact: Redact,
): CheckResult {
  // Snapshots are committed files: a secret the server echoed must not land in the repository.
  return compareSnapshot(join(dirname(file), `${scenario.id}.${transport}.snap`), redact(transcriptText(scenario, transport, events, wire)), options.updateSnapshots)
}

/** Wire messages a transcript shows at most (no snapshot comes near it). */
const MAX_TRANSCRIPT_WIRE = 5000

/** The run's transcript as the snapshot file holds it, before redaction. */
function transcriptText(scenario: Scenario, transport: string, events: ModelEvent[], wire: Parameters<typeof formatWireTranscript>[0]): string {
  const sections = [`# ${scenario.id} over ${transport}`, '', '## what the model sees', formatModelTranscript(events)]
  // Bounded like the timeline: a runaway client's millionth request adds nothing but minutes.
  const shown = wire.length > MAX_TRANSCRIPT_WIRE ? wire.slice(0, MAX_TRANSCRIPT_WIRE) : wire
  const more = wire.length > shown.length ? `(${wire.length - shown.length} more messages not shown)\n` : ''
  sections.push('## wire', scenario.transcript.wire ? formatWireTranscript(shown) + more : `(not recorded: ${scenario.transcript.reason ?? 'not deterministic'})\n`)
  return sections.join('\n')
}

/** The scenario's configured secrets (client headers and env, the host environment it plants) and every secret shape. */
function scenarioRedactor(scenario: Scenario): Redact {
  const client = scenario.client as { headers?: Record<string, string>; env?: Record<string, string>; url?: string }
  return createRedactor([...configSecrets(client), ...Object.values(scenario.hostEnv)])
}
