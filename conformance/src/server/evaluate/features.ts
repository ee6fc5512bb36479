/** Pure verdicts on the declared features' own methods: reads, prompts, templates, subscriptions, completion, logging. */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show, unreadable } from '../check.ts'
import { COMPLETE, PROMPTS_GET, RESOURCE_TEMPLATES, RESOURCES_READ, RESOURCES_SUBSCRIBE, SET_LEVEL } from '../registry/features.ts'
import type { CheckDef } from '../registry/types.ts'
import { validateShape, type ShapeName } from '../shapes.ts'
import { missingMimeMessage } from './prompt-messages.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

const unanswered = (outcome: RpcOutcome) => outcome.kind === 'timeout' || outcome.kind === 'closed'
const INVALID_PARAMS = -32602
const RESOURCE_NOT_FOUND = -32002

/**
 * One request of a declared feature: no answer breaks the reply rule (JSON-RPC's MUST); a JSON-RPC
 * error breaks only the declaration, whose sentence states no keyword, so it is information (and
 * -32602 to inputs the kit had to make up is the answer the error-handling SHOULD asks for); a
 * result is validated as `shape` (the SDK's schema, as the revision defines it).
 */
function judgeFeatureCall(def: CheckDef, version: string, what: string, outcome: RpcOutcome, shape: ShapeName, summary: (result: unknown) => string, madeUpInputs = false): CheckResult {
  const j = judge(def, version)
  const wire = outcome.wire
  const blocked = unreadable(j, what, outcome)
  if (blocked) return blocked
  if (unanswered(outcome)) return j.breach(`${what} got ${describeOutcome(outcome)}`, { wire }, 'reply')
  if (outcome.kind === 'error' && madeUpInputs && outcome.error.code === INVALID_PARAMS) {
    return j.info(`${what} was refused with ${describeOutcome(outcome)}: the server rejects the values the kit had to make up, as the spec suggests`, { wire }, 'invalid-params')
  }
  if (outcome.kind !== 'result') return j.breach(`${what} got ${describeOutcome(outcome)}, although the capability is declared`, { wire })
  const { issues, unjudged } = validateShape(shape, outcome.result, version)
  const problems = issues.map((issue) => issue.text)
  const details = { ...(problems.length ? { problems } : {}), ...(unjudged.length ? { notInRevision: unjudged } : {}) }
  const observed = { wire, ...(Object.keys(details).length ? { details } : {}) }
  if (problems.length) return j.breach(`${what}: the result breaks the ${version} ${shape} schema: ${list(problems, 3)}`, observed, 'shape')
  return j.pass(`${what} returned ${summary(outcome.result)}`, observed)
}

const counted = (field: string, noun: string) => (result: unknown) => {
  const found = isObject(result) ? result[field] : undefined
  return count(Array.isArray(found) ? found.length : 0, noun)
}

/** `listFailedAt`: the check that reports why there is no resource list, when there is none. */
export function judgeRead(uri: string | undefined, outcome: RpcOutcome | undefined, listFailedAt: string | undefined, version: string): CheckResult {
  const j = judge(RESOURCES_READ, version)
  if (listFailedAt !== undefined) return j.notTestable(listFailedAt, 'there is no resource list to read from')
  if (uri === undefined || !outcome) return j.skip('resources/list returned no resources to read')
  if (outcome.kind === 'error' && outcome.error.code === RESOURCE_NOT_FOUND) {
    // The code the resources page gives for a missing resource: never a failure, even for a listed one.
    return j.info(`reading ${show(uri)} got ${describeOutcome(outcome)}, the code the spec gives for a resource not found, although resources/list listed it; no contents to judge`, { wire: outcome.wire }, 'not-found')
  }
  return judgeFeatureCall(RESOURCES_READ, version, `reading ${show(uri)}`, outcome, 'ReadResourceResult', counted('contents', 'content item'))
}

/** `listFailedAt`: the check that reports why there is no prompt list, when there is none. */
export function judgeGetPrompt(name: string | undefined, outcome: RpcOutcome | undefined, listFailedAt: string | undefined, version: string, madeUp: string[] = [], sentArguments = true): CheckResult {
  const j = judge(PROMPTS_GET, version)
  if (listFailedAt !== undefined) return j.notTestable(listFailedAt, 'there is no prompt list to get a prompt from')
  if (name === undefined || !outcome) return j.skip('prompts/list returned no prompts to get')
  // Named, because the prompt the server listed needs no argument, so the request as sent is one it offered to serve.
  const bare = sentArguments ? '' : ' without "arguments" (the prompt lists none as required)'
  const what = `getting ${show(name)}${madeUp.length ? ` with made-up ${madeUp.map((a) => show(a, 30)).join(', ')}` : bare}`
  if (!sentArguments && outcome.kind === 'error' && outcome.error.code === INVALID_PARAMS) {
    // GetPromptRequest is the client's type and binds no server; the declared capability is what fails
    // here, and its sentence states no keyword: information.
    return j.breach(`${what} was refused with ${describeOutcome(outcome)}: the server declared prompts, and getting a listed prompt as the listing describes it fails`, { wire: outcome.wire })
  }
  const served = judgeFeatureCall(PROMPTS_GET, version, what, outcome, 'GetPromptResult', counted('messages', 'message'), madeUp.length > 0)
  const noMime = served.status === 'pass' && outcome.kind === 'result' ? missingMimeMessage(what, outcome.result) : undefined
  return noMime ? j.breach(noMime, { wire: outcome.wire }, 'mime-type') : served
}

export function judgeTemplates(outcome: RpcOutcome, version: string): CheckResult {
  const j = judge(RESOURCE_TEMPLATES, version)
  // Templates are optional within the resources capability.
  if (outcome.kind === 'error' && outcome.error.code === -32601) return j.skip('the server does not serve resources/templates/list (-32601); templates are optional', { wire: outcome.wire })
  return judgeFeatureCall(RESOURCE_TEMPLATES, version, 'resources/templates/list', outcome, 'ListResourceTemplatesResult', counted('resourceTemplates', 'template'))
}

export function judgeSubscribe(uri: string | undefined, subscribed: RpcOutcome | undefined, unsubscribed: RpcOutcome | undefined, version: string): CheckResult {
  const j = judge(RESOURCES_SUBSCRIBE, version)
  if (uri === undefined || !subscribed) return j.skip('resources/list returned no resource to subscribe to')
  const first = judgeFeatureCall(RESOURCES_SUBSCRIBE, version, `resources/subscribe ${show(uri)}`, subscribed, 'Result', () => 'a result')
  if (first.status !== 'pass' || !unsubscribed) return first
  const second = judgeFeatureCall(RESOURCES_SUBSCRIBE, version, `resources/unsubscribe ${show(uri)}`, unsubscribed, 'Result', () => 'a result')
  if (second.status !== 'pass') return { ...second, wire: [...(first.wire ?? []), ...(second.wire ?? [])] }
  return j.pass(`subscribed to and unsubscribed from ${show(uri)}`, { wire: [...subscribed.wire, ...unsubscribed.wire] })
}

/** What completion/complete was asked to complete, for messages. */
export interface CompletionTarget {
  ref: Record<string, unknown>
  argument: string
  /** Where the reference came from, e.g. `prompt "greet"`. */
  label: string
}

export function judgeComplete(target: CompletionTarget | undefined, outcome: RpcOutcome | undefined, version: string, why = 'no prompt has arguments and no resource template has a variable'): CheckResult {
  const j = judge(COMPLETE, version)
  if (!j.applies) return j.notInRevision()
  if (!target || !outcome) return j.skip(`nothing to complete: ${why}`)
  const what = `completion/complete of argument ${show(target.argument, 40)} of ${target.label}`
  return judgeFeatureCall(COMPLETE, version, what, outcome, 'CompleteResult', (result) => `${count(completionValues(result).length, 'value')}`, true)
}

export function completionValues(result: unknown): string[] {
  const completion = isObject(result) ? result.completion : undefined
  const values = isObject(completion) ? completion.values : undefined
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : []
}

export function judgeSetLevel(outcome: RpcOutcome, version: string): CheckResult {
  return judgeFeatureCall(SET_LEVEL, version, 'logging/setLevel "info"', outcome, 'Result', () => 'an empty result (accepted)')
}

/** The area was not declared: one skip per check that would have run, so reports stay comparable. */
export function notDeclared(capability: string, defs: CheckDef[], version: string): CheckResult[] {
  return defs.map((def) => {
    const j = judge(def, version)
    return j.applies ? j.skip(`the server does not declare the ${capability} capability`) : j.notInRevision()
  })
}
