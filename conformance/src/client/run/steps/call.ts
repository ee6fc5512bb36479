import type { ClientSession } from '../../adapter.ts'
import { callExpectationFor } from '../../applicability.ts'
import { callMismatches } from '../../expectations.ts'
import { clientSpec, runRevision } from '../../rules.ts'
import type { CallExpectation, CallSpec } from '../../scenario.ts'
import { INFORMATION } from '../../verdicts.ts'
import type { RunState } from '../state.ts'

/** The `call` step: the model calls a tool through the client; its outcome is judged against the call's `expect`. */
export async function runCall(run: RunState, call: CallSpec, index: number): Promise<'not-reached' | void> {
  const { adapter, kind, scenario } = run
  const tool = run.session!.tools().find((t) => t.rawName === call.tool)
  // A driven client that does not offer the tool is not asked to call it: the kit never makes
  // up a name for a client to send (and then blames it for sending a name the server never
  // listed). Which tools a client offers its model is its own choice, judged by expect/tools.
  if (kind === 'client' && !tool) return notOffered(run, call, index)
  const publicName = tool?.name ?? `(no tool for ${call.tool})`
  const controller = new AbortController()
  const timer = call.abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort('the caller aborted the call'), call.abortAfterMs)
  const route = call.route === 'none' ? undefined : adapter.routes[call.route]
  let outcome: Awaited<ReturnType<ClientSession['call']>>
  try {
    outcome = await run.session!.call(publicName, call.args, { signal: controller.signal, route })
  } finally {
    clearTimeout(timer)
  }
  run.events.push({ kind: 'call', tool: call.tool, publicName, args: call.args, outcome })
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
    const hung = clientSpec('timeouts/requests', runRevision(run.fixture.wire()))
    run.checks.push({ id, title: `Call ${index} (${call.tool}) has the expected outcome`, status: 'warn', message: `${problems.join('; ')} (a SHOULD for clients: ${hung.ref})`, spec: hung, details: { outcome } })
    return
  }
  run.checks.push({
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
function notOffered(run: RunState, call: CallSpec, index: number): 'not-reached' | void {
  const offered = run.session!.tools().map((t) => t.rawName)
  const text = `the client does not offer ${call.tool} (it offers ${offered.length ? offered.join(', ') : 'no tools'}${run.offeredAtStart.has(call.tool) ? `; it offered ${call.tool} once started` : ''}), so the kit did not call it`
  const outcome = { isError: true, code: 'UNKNOWN_TOOL', content: [{ type: 'text' as const, text }] }
  run.events.push({ kind: 'call', tool: call.tool, publicName: `(not offered: ${call.tool})`, args: call.args, outcome })
  if (call.expect?.code === 'UNKNOWN_TOOL') {
    const problems = callMismatches(outcome, callExpectationFor(call.expect, run.kind).expect)
    run.checks.push({ id: `expect/call-${index}`, title: `Call ${index} (${call.tool}) has the expected outcome`, status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : text, spec: run.scenario.spec[0], details: { outcome } })
    return
  }
  if (call.expect) run.checks.push({ id: `expect/call-${index}`, title: `Call ${index} (${call.tool}) has the expected outcome`, status: 'skip', message: `nothing to judge: ${text}`, spec: run.scenario.spec[0], details: { outcome } })
  return 'not-reached'
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
