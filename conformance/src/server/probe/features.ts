/**
 * Resources, prompts, completion and logging. A declared capability is exercised (lists, a read,
 * templates, subscriptions, a prompt, a completion, a log level); an undeclared one is asked for
 * once, to catch a feature that is served without being declared.
 */
import type { CheckResult } from '../../model.ts'
import { isObject, judge } from '../check.ts'
import { completionValues, judgeComplete, judgeGetPrompt, judgeRead, judgeSetLevel, judgeSubscribe, judgeTemplates, notDeclared } from '../evaluate/features.ts'
import type { Session } from '../evaluate/lifecycle.ts'
import { judgeList, listChecks, listFailed, listPrerequisite, namedItems } from '../evaluate/lists.ts'
import { judgeInvalidLevel } from '../evaluate/invalid-inputs.ts'
import { judgeInvalidUri } from '../evaluate/invalid-uri.ts'
import { judgeMissingArgument } from '../evaluate/prompt-messages.ts'
import { judgeResourceUris } from '../evaluate/resource-uris.ts'
import { judgeUndeclared } from '../evaluate/undeclared.ts'
import {
  COMPLETE,
  COMPLETIONS_UNDECLARED,
  PROMPTS_GET,
  PROMPTS_MISSING_ARGUMENT,
  PROMPTS_UNDECLARED,
  RESOURCE_TEMPLATES,
  RESOURCES_INVALID_URI,
  RESOURCES_READ,
  RESOURCES_SUBSCRIBE,
  RESOURCES_UNDECLARED,
  RESOURCES_URI_SYNTAX,
  SET_LEVEL,
  SET_LEVEL_INVALID,
} from '../registry/features.ts'
import { atLeast } from '../spec.ts'
import { INVALID_URI } from '../invalid-uri.ts'
import { UNKNOWN_LEVEL } from '../unknown-inputs.ts'
import type { RpcOutcome, Wire } from '../wire/types.ts'
import { argumentsOf, completionTarget, promptArguments, promptsToTry } from './arguments.ts'
import { drainList } from './lists.ts'

/** How many listed prompts the kit tries when a server rejects the values it had to make up. */
const PROMPT_ATTEMPTS = 3

const arrayAt = (field: string) => (result: Record<string, unknown>) => (Array.isArray(result[field]) ? (result[field] as unknown[]) : undefined)

export async function probeFeatures(wire: Wire, session: Session, timeoutMs: number): Promise<CheckResult[]> {
  const resources = await probeResources(wire, session, timeoutMs)
  const prompts = await listPrompts(wire, session, timeoutMs)
  const completion = await probeCompletion(wire, session, prompts.items, resources.templates, timeoutMs)
  const get = await getPrompt(wire, session, prompts, completion.complete, timeoutMs)
  const missing = await getWithoutArgument(wire, session, prompts, timeoutMs)
  return [...resources.checks, ...prompts.checks, get, missing, ...completion.checks, ...(await probeLogging(wire, session, timeoutMs))]
}

async function probeResources(wire: Wire, session: Session, timeoutMs: number): Promise<{ checks: CheckResult[]; templates: unknown[] }> {
  const v = session.version
  const declared = session.capabilities.resources
  const later = [RESOURCES_URI_SYNTAX, RESOURCES_READ, RESOURCES_INVALID_URI, RESOURCE_TEMPLATES, RESOURCES_SUBSCRIBE]
  if (!isObject(declared)) {
    const outcome = await wire.request('resources/list', {}, timeoutMs)
    const undeclared = judgeUndeclared(RESOURCES_UNDECLARED, v, 'resources/list', 'resources', outcome, arrayAt('resources'))
    return { checks: [undeclared, ...notDeclared('resources', [...listChecks('resources'), ...later], v)], templates: [] }
  }
  const checks = [judge(RESOURCES_UNDECLARED, v).skip('the server declares the resources capability')]
  const obs = await drainList(wire, 'resources', timeoutMs)
  checks.push(...judgeList(obs, v))
  const failedAt = listFailed(obs) ? listPrerequisite(obs) : undefined
  checks.push(judgeResourceUris(obs.items, failedAt, v))
  const first = obs.items.find((item): item is Record<string, unknown> => isObject(item) && typeof item.uri === 'string')
  const uri = failedAt !== undefined ? undefined : (first?.uri as string | undefined)
  checks.push(judgeRead(uri, uri === undefined ? undefined : await wire.request('resources/read', { uri }, timeoutMs), failedAt, v))
  checks.push(judgeInvalidUri(await wire.request('resources/read', { uri: INVALID_URI }, timeoutMs), v))
  const templatesOutcome = await wire.request('resources/templates/list', {}, timeoutMs)
  checks.push(judgeTemplates(templatesOutcome, v))
  const templates = templatesOutcome.kind === 'result' && isObject(templatesOutcome.result) && Array.isArray(templatesOutcome.result.resourceTemplates) ? templatesOutcome.result.resourceTemplates : []
  if (declared.subscribe !== true) checks.push(judge(RESOURCES_SUBSCRIBE, v).skip('resources.subscribe is not declared'))
  else {
    const subscribed = uri === undefined ? undefined : await wire.request('resources/subscribe', { uri }, timeoutMs)
    const unsubscribed = subscribed?.kind === 'result' && uri !== undefined ? await wire.request('resources/unsubscribe', { uri }, timeoutMs) : undefined
    checks.push(judgeSubscribe(uri, subscribed, unsubscribed, v))
  }
  return { checks, templates }
}

interface PromptList {
  checks: CheckResult[]
  items: Record<string, unknown>[]
  declared: boolean
  /** The check that reports why there is no prompt list, when there is none. */
  failedAt?: string
}

async function listPrompts(wire: Wire, session: Session, timeoutMs: number): Promise<PromptList> {
  const v = session.version
  if (!isObject(session.capabilities.prompts)) {
    const outcome = await wire.request('prompts/list', {}, timeoutMs)
    const undeclared = judgeUndeclared(PROMPTS_UNDECLARED, v, 'prompts/list', 'prompts', outcome, arrayAt('prompts'))
    return { checks: [undeclared, ...notDeclared('prompts', listChecks('prompts'), v)], items: [], declared: false }
  }
  const obs = await drainList(wire, 'prompts', timeoutMs)
  const checks = [judge(PROMPTS_UNDECLARED, v).skip('the server declares the prompts capability'), ...judgeList(obs, v)]
  if (listFailed(obs)) return { checks, items: [], declared: true, failedAt: listPrerequisite(obs) }
  return { checks, items: namedItems(obs), declared: true }
}

type Complete = (ref: Record<string, unknown>, argument: string, context: Record<string, string>) => Promise<string | undefined>

async function probeCompletion(wire: Wire, session: Session, prompts: Record<string, unknown>[], templates: unknown[], timeoutMs: number): Promise<{ checks: CheckResult[]; complete?: Complete }> {
  const v = session.version
  const target = completionTarget(prompts, templates)
  const params = (ref: Record<string, unknown>, argument: string, context: Record<string, string> = {}) => ({
    ref,
    argument: { name: argument, value: '' },
    // context.arguments arrived in 2025-06-18.
    ...(atLeast(v, '2025-06-18') && Object.keys(context).length ? { context: { arguments: context } } : {}),
  })
  if (!isObject(session.capabilities.completions)) {
    const j = judge(COMPLETIONS_UNDECLARED, v)
    let undeclared: CheckResult
    if (!j.applies) undeclared = j.notInRevision()
    else if (!target) undeclared = j.skip('no prompt argument or template variable to ask completion/complete about')
    else {
      const outcome = await wire.request('completion/complete', params(target.ref, target.argument), timeoutMs)
      undeclared = judgeUndeclared(COMPLETIONS_UNDECLARED, v, `completion/complete of ${target.label}`, 'completions', outcome, (result) => completionValues(result))
    }
    return { checks: [undeclared, ...notDeclared('completions', [COMPLETE], v)] }
  }
  const skipUndeclared = judge(COMPLETIONS_UNDECLARED, v).skip('the server declares the completions capability')
  const outcome = target ? await wire.request('completion/complete', params(target.ref, target.argument), timeoutMs) : undefined
  const complete: Complete = async (ref, argument, context) => {
    const answer: RpcOutcome = await wire.request('completion/complete', params(ref, argument, context), timeoutMs)
    return answer.kind === 'result' ? completionValues(answer.result)[0] : undefined
  }
  return { checks: [skipUndeclared, judgeComplete(target, outcome, v)], complete }
}

/** prompts/get of a listed prompt: the simplest first; made-up values rightly refused move on to the next. */
async function getPrompt(wire: Wire, session: Session, prompts: PromptList, complete: Complete | undefined, timeoutMs: number): Promise<CheckResult> {
  const v = session.version
  if (!prompts.declared) return judge(PROMPTS_GET, v).skip('the server does not declare the prompts capability')
  let last: { name: string; outcome: RpcOutcome; madeUp: string[]; sent: boolean } | undefined
  for (const prompt of promptsToTry(prompts.items).slice(0, PROMPT_ATTEMPTS)) {
    const name = prompt.name as string
    const ask = complete ? (argument: string, context: Record<string, string>) => complete({ type: 'ref/prompt', name }, argument, context) : undefined
    const { args, madeUp } = await promptArguments(prompt, ask)
    const outcome = await wire.request('prompts/get', { name, ...(Object.keys(args).length ? { arguments: args } : {}) }, timeoutMs)
    last = { name, outcome, madeUp, sent: Object.keys(args).length > 0 }
    const rejectedMadeUp = outcome.kind === 'error' && outcome.error.code === -32602 && madeUp.length > 0
    if (!rejectedMadeUp) break
  }
  return judgeGetPrompt(last?.name, last?.outcome, prompts.failedAt, v, last?.madeUp, last?.sent)
}

/** prompts/get of the first listed prompt with a required argument, sent without any. */
async function getWithoutArgument(wire: Wire, session: Session, prompts: PromptList, timeoutMs: number): Promise<CheckResult> {
  if (!prompts.declared) return judge(PROMPTS_MISSING_ARGUMENT, session.version).skip('the server does not declare the prompts capability')
  const target = prompts.items
    .map((prompt) => ({ name: prompt.name as string, argument: argumentsOf(prompt).find((arg) => arg.required)?.name }))
    .find((found): found is { name: string; argument: string } => found.argument !== undefined)
  const outcome = target ? await wire.request('prompts/get', { name: target.name }, timeoutMs) : undefined
  return judgeMissingArgument(target, outcome, prompts.failedAt, session.version)
}

async function probeLogging(wire: Wire, session: Session, timeoutMs: number): Promise<CheckResult[]> {
  if (!isObject(session.capabilities.logging)) return notDeclared('logging', [SET_LEVEL, SET_LEVEL_INVALID], session.version)
  const accepted = judgeSetLevel(await wire.request('logging/setLevel', { level: 'info' }, timeoutMs), session.version)
  return [accepted, judgeInvalidLevel(await wire.request('logging/setLevel', { level: UNKNOWN_LEVEL }, timeoutMs), session.version)]
}
