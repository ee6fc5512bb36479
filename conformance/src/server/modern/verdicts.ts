/** Pure verdicts on a modern server's answers past server/discover (the exchanges are in requests.ts). */
import type { CheckResult } from '../../model.ts'
import { isObject, list, show } from '../check.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { UNSUPPORTED_PROTOCOL_VERSION } from './detect.ts'
import { modernJudge } from './judge.ts'
import { CLIENT_INFO_OPTIONAL, ERROR_ID, HEADER_MISMATCH, INPUT_REQUIRED, LISTEN, LISTS, META_REQUIRED, METHOD_NOT_FOUND, ORIGIN, RESOURCE_MISSING, RESULT_TYPE, TOOL_NAMES } from './rules.ts'

const INVALID_PARAMS = -32602
const METHOD_NOT_FOUND_CODE = -32601
const HEADER_MISMATCH_CODE = -32020
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/

/** One exchange of the modern run, named for the messages that report on it. */
export interface Labelled {
  label: string
  outcome: RpcOutcome
  /** A request that may be answered input_required (tools/call, prompts/get, resources/read). */
  mayAskForInput?: boolean
}

/** The methods of the requests an InputRequiredResult may ask for (2026-07-28 basic/patterns/mrtr). */
const INPUT_METHODS: readonly string[] = ['elicitation/create', 'sampling/createMessage', 'roots/list']

/** The requests an InputRequiredResult may answer (2026-07-28 basic/patterns/mrtr, Supported Requests). */
export const MAY_ASK_FOR_INPUT: readonly string[] = ['prompts/get', 'resources/read', 'tools/call']

const unanswered = (outcome: RpcOutcome) => outcome.kind === 'timeout' || outcome.kind === 'closed'
const statusOf = (outcome: RpcOutcome) => outcome.http?.status
const withStatus = (outcome: RpcOutcome) => `${describeOutcome(outcome)}${outcome.http?.status !== undefined ? ` with HTTP ${outcome.http.status}` : ''}`

/** The ResultType values of the core protocol (2026-07-28 basic, ResultType). */
export const CORE_RESULT_TYPES: readonly string[] = ['complete', 'input_required']

/** `extensions`: whether the DiscoverResult declares any extension (a non-core resultType is then one it did not revert from). */
export function judgeResultTypes(exchanges: Labelled[], extensions = false): CheckResult {
  const j = modernJudge(RESULT_TYPE)
  const results = exchanges.filter((e) => e.outcome.kind === 'result')
  if (results.length === 0) return j.skip('Not testable: no request of the modern run got a result')
  const missing = results.filter((e) => !isObject((e.outcome as { result: unknown }).result) || typeof ((e.outcome as { result: Record<string, unknown> }).result.resultType) !== 'string')
  if (missing.length) return j.breach(`${missing.length} of ${results.length} results have no string resultType: ${list(missing.map((e) => e.label))}`, { wire: missing[0]!.outcome.wire })
  const unknown = results.filter((e) => !CORE_RESULT_TYPES.includes((e.outcome as { result: Record<string, unknown> }).result.resultType as string))
  if (unknown.length) {
    const first = unknown[0]!
    const value = show((first.outcome as { result: Record<string, unknown> }).result.resultType, 40)
    return j.breach(`${list(unknown.map((e) => e.label))} answered resultType ${value}, which the core protocol does not define${extensions ? ' (the kit declared no extension, so the server must answer the core way)' : ' and no declared extension adds'}`, { wire: first.outcome.wire }, extensions ? 'extension' : 'unknown')
  }
  const asking = results.filter((e) => !e.mayAskForInput && (e.outcome as { result: Record<string, unknown> }).result.resultType === 'input_required')
  if (asking.length) return j.breach(`${list(asking.map((e) => e.label))} answered resultType "input_required", which only tools/call, prompts/get and resources/read may`, { wire: asking[0]!.outcome.wire }, 'input-required')
  return j.pass(`all ${results.length} results carry resultType (${list(results.map((e) => e.label))})`)
}

/** The id of the request an outcome answers, and the error message the server sent for it. */
function errorIds(outcome: RpcOutcome): { sent: unknown; received: unknown } | undefined {
  if (outcome.kind !== 'error') return undefined
  const sent = (outcome.wire[0]?.message as { id?: unknown } | undefined)?.id
  // The last: the answer that settled the request comes after any stray message copied while it was pending.
  const answer = outcome.wire.findLast((entry) => entry.dir === 'server→client' && isObject(entry.message) && 'error' in entry.message)
  return { sent, received: isObject(answer?.message) ? answer.message.id : undefined }
}

export function judgeErrorIds(exchanges: Labelled[]): CheckResult {
  const j = modernJudge(ERROR_ID)
  const errors = exchanges.flatMap((e) => {
    const ids = errorIds(e.outcome)
    return ids ? [{ ...e, ...ids }] : []
  })
  if (errors.length === 0) return j.skip('Not testable: no request of the modern run got an error')
  const wrong = errors.filter((e) => e.received !== e.sent)
  if (wrong.length) {
    const first = wrong[0]!
    return j.breach(`${wrong.length} of ${errors.length} errors do not carry their request's id: ${list(wrong.map((e) => `${e.label} (id ${show(e.sent)}, answered ${e.received === undefined ? 'without an id' : `with id ${show(e.received)}`})`), 3)}`, { wire: first.outcome.wire })
  }
  return j.pass(`all ${errors.length} errors carry their request's id (${list(errors.map((e) => e.label))})`)
}

export function judgeMetaRequired(outcome: RpcOutcome, transport: 'stdio' | 'http'): CheckResult {
  const j = modernJudge(META_REQUIRED)
  const observed = { wire: outcome.wire }
  if (unanswered(outcome)) return j.breach(`server/discover without clientCapabilities got ${describeOutcome(outcome)}`, observed, 'reply')
  if (outcome.kind === 'error' && outcome.error.code === INVALID_PARAMS) {
    if (transport === 'http' && statusOf(outcome) !== 400) return j.breach(`server/discover without clientCapabilities got ${withStatus(outcome)}: the right error, not with 400 Bad Request`, observed, 'http-status')
    return j.pass(`server/discover without clientCapabilities got ${withStatus(outcome)}`, observed)
  }
  return j.breach(`server/discover without the required clientCapabilities got ${withStatus(outcome)}, not error -32602 Invalid params`, observed)
}

export function judgeClientInfoOptional(outcome: RpcOutcome): CheckResult {
  const j = modernJudge(CLIENT_INFO_OPTIONAL)
  const observed = { wire: outcome.wire }
  if (unanswered(outcome)) return j.breach(`server/discover without clientInfo got ${describeOutcome(outcome)}`, observed, 'reply')
  if (outcome.kind === 'result') return j.pass('server/discover without clientInfo got a result', observed)
  return j.breach(`server/discover without clientInfo (not a required field) got ${withStatus(outcome)}`, observed)
}

/**
 * Each method the server need not implement. A result is fine (serving it breaks nothing); over
 * HTTP an answer that says "not implemented" one way (-32601, or status 404) must say it both ways.
 */
export function judgeMethodsNotFound(exchanges: Labelled[], transport: 'stdio' | 'http'): CheckResult {
  const j = modernJudge(METHOD_NOT_FOUND)
  if (exchanges.length === 0) return j.skip('Not testable: no method to ask for')
  const silent = exchanges.find((e) => unanswered(e.outcome))
  if (silent) return j.breach(`${silent.label} got ${describeOutcome(silent.outcome)}`, { wire: silent.outcome.wire }, 'reply')
  const notFound = (o: RpcOutcome) => o.kind === 'error' && o.error.code === METHOD_NOT_FOUND_CODE
  if (transport === 'http') {
    const halfway = exchanges.find((e) => (notFound(e.outcome) || statusOf(e.outcome) === 404) && !(notFound(e.outcome) && statusOf(e.outcome) === 404))
    if (halfway) return j.breach(`${halfway.label} got ${withStatus(halfway.outcome)}: not 404 Not Found with error -32601`, { wire: halfway.outcome.wire }, 'http')
  }
  const other = exchanges.find((e) => e.outcome.kind !== 'result' && !notFound(e.outcome))
  if (other) return j.breach(`${other.label} got ${withStatus(other.outcome)}, not -32601 Method not found`, { wire: other.outcome.wire }, 'code')
  const served = exchanges.filter((e) => e.outcome.kind === 'result').map((e) => e.label)
  const refused = exchanges.filter((e) => e.outcome.kind !== 'result').map((e) => e.label)
  return j.pass(`${refused.length ? `${list(refused, 10)}: -32601${transport === 'http' ? ' with HTTP 404' : ''}` : ''}${refused.length && served.length ? '; ' : ''}${served.length ? `still served: ${list(served, 10)}` : ''}`)
}

/** `kind`: which header contradicted the body. */
export function judgeHeaderMismatch(exchanges: (Labelled & { kind: 'method' | 'version' })[]): CheckResult {
  const j = modernJudge(HEADER_MISMATCH)
  const silent = exchanges.find((e) => unanswered(e.outcome))
  if (silent) return j.breach(`${silent.label} got ${describeOutcome(silent.outcome)}`, { wire: silent.outcome.wire }, 'reply')
  const accepted = exchanges.find((e) => e.outcome.kind === 'result')
  if (accepted) return j.breach(`${accepted.label} got a result: the request was served, not rejected`, { wire: accepted.outcome.wire }, accepted.kind === 'version' ? 'version' : undefined)
  const rejected = (o: RpcOutcome) => o.kind === 'error' && o.error.code === HEADER_MISMATCH_CODE && statusOf(o) === 400
  // The header names a version the server may not speak: refusing that version first is not ordered against the mismatch.
  const unsupported = (e: (typeof exchanges)[number]) => e.kind === 'version' && e.outcome.kind === 'error' && e.outcome.error.code === UNSUPPORTED_PROTOCOL_VERSION && statusOf(e.outcome) === 400
  const wrong = exchanges.find((e) => !rejected(e.outcome) && !unsupported(e))
  if (wrong) return j.breach(`${wrong.label} got ${withStatus(wrong.outcome)}, not HTTP 400 with error -32020 HeaderMismatch`, { wire: wrong.outcome.wire }, wrong.kind === 'version' ? 'version' : 'code')
  return j.pass(exchanges.map((e) => `${e.label}: ${withStatus(e.outcome)}`).join('; '))
}

export function judgeOrigin(outcome: RpcOutcome): CheckResult {
  const j = modernJudge(ORIGIN)
  const observed = { wire: outcome.wire }
  const status = statusOf(outcome)
  if (status === 403) return j.pass('server/discover with Origin http://evil.example got HTTP 403', observed)
  if (status === undefined) return j.breach(`server/discover with Origin http://evil.example got ${describeOutcome(outcome)}, not HTTP 403`, observed)
  return j.breach(`server/discover with Origin http://evil.example got HTTP ${status}${outcome.kind === 'result' ? ' and a result: the foreign origin was served' : ''}, not 403 Forbidden`, observed)
}

/** The member of each list result holding its entries. */
const MEMBER = { tools: 'tools', prompts: 'prompts', resources: 'resources' } as const
export type Feature = keyof typeof MEMBER

/** What in a list result breaks the revision, as "field: what is wrong", each under the rule case it breaks. */
export function listIssues(result: unknown, feature: Feature): { issue: string; ruleCase: 'hints' | 'ttl' | 'shape' }[] {
  if (!isObject(result)) return [{ issue: `the result is ${show(result)}, not an object`, ruleCase: 'shape' }]
  const issues: { issue: string; ruleCase: 'hints' | 'ttl' | 'shape' }[] = []
  if (!Array.isArray(result[MEMBER[feature]])) issues.push({ issue: `${MEMBER[feature]}: required array, found ${show(result[MEMBER[feature]])}`, ruleCase: 'shape' })
  if (!('ttlMs' in result) || !('cacheScope' in result)) issues.push({ issue: `caching hints: ${['ttlMs', 'cacheScope'].filter((k) => !(k in result)).join(' and ')} missing`, ruleCase: 'hints' })
  if ('ttlMs' in result && (typeof result.ttlMs !== 'number' || !Number.isFinite(result.ttlMs))) issues.push({ issue: `ttlMs: required number, found ${show(result.ttlMs)}`, ruleCase: 'shape' })
  else if (typeof result.ttlMs === 'number' && result.ttlMs < 0) issues.push({ issue: `ttlMs: ${result.ttlMs}, not ≥ 0`, ruleCase: 'ttl' })
  if ('cacheScope' in result && result.cacheScope !== 'public' && result.cacheScope !== 'private') issues.push({ issue: `cacheScope: "public" or "private", found ${show(result.cacheScope)}`, ruleCase: 'shape' })
  return issues
}

export function judgeLists(lists: (Labelled & { feature: Feature })[]): CheckResult {
  const j = modernJudge(LISTS)
  if (lists.length === 0) return j.skip('Not testable: the DiscoverResult declares none of tools, prompts and resources')
  for (const { label, outcome, feature } of lists) {
    if (outcome.kind !== 'result') return j.breach(`${label} got ${withStatus(outcome)}, though ${feature} is declared`, { wire: outcome.wire }, feature)
    const issues = listIssues(outcome.result, feature)
    if (issues.length) return j.breach(`the ${label} result: ${list(issues.map((i) => i.issue), 3)}`, { wire: outcome.wire, details: { problems: issues.map((i) => i.issue) } }, issues[0]!.ruleCase)
  }
  return j.pass(lists.map(({ label, outcome, feature }) => {
    const result = (outcome as { result: Record<string, unknown> }).result
    return `${label}: ${(result[MEMBER[feature]] as unknown[]).length} ${feature}, ttlMs ${String(result.ttlMs)}, cacheScope ${String(result.cacheScope)}`
  }).join('; '))
}

export function judgeToolNames(tools: RpcOutcome | undefined): CheckResult {
  const j = modernJudge(TOOL_NAMES)
  const listed = tools?.kind === 'result' && isObject(tools.result) && Array.isArray(tools.result.tools) ? (tools.result.tools as unknown[]) : undefined
  if (!listed) return j.skip(`Not testable: no tools/list result to read names from${tools ? `; ${LISTS.id} reports why` : ' (tools not declared)'}`)
  const names = listed.map((tool) => (isObject(tool) ? tool.name : undefined))
  const bad = names.filter((name) => typeof name !== 'string' || !TOOL_NAME.test(name))
  if (bad.length) return j.breach(`${bad.length} of ${names.length} tool names break the format: ${list(bad.map((name) => show(name, 60)))}`)
  const repeated = names.filter((name, i) => names.indexOf(name) !== i)
  if (repeated.length) return j.breach(`tools/list names ${list([...new Set(repeated)].map((name) => show(name, 60)))} more than once`, { wire: tools!.wire }, 'unique')
  return j.pass(`${names.length} tool names, each 1–128 characters of A-Z a-z 0-9 _ - ., none listed twice`)
}

export function judgeResourceMissing(outcome: RpcOutcome | undefined, uri: string): CheckResult {
  const j = modernJudge(RESOURCE_MISSING)
  if (!outcome) return j.skip('Not testable: the DiscoverResult does not declare resources')
  const observed = { wire: outcome.wire }
  if (unanswered(outcome)) return j.breach(`resources/read of ${uri} got ${describeOutcome(outcome)}`, observed, 'reply')
  if (outcome.kind === 'result') {
    const contents = isObject(outcome.result) ? outcome.result.contents : undefined
    if (Array.isArray(contents) && contents.length === 0) return j.breach(`resources/read of ${uri}, which does not exist, got a result with an empty contents array`, observed, 'empty')
    return j.breach(`resources/read of ${uri}, which does not exist, got a result, not error -32602`, observed)
  }
  if (outcome.kind === 'error' && outcome.error.code === INVALID_PARAMS) return j.pass(`resources/read of ${uri} got ${withStatus(outcome)}`, observed)
  return j.breach(`resources/read of ${uri}, which does not exist, got ${withStatus(outcome)}, not error -32602`, observed)
}

/** The first message of a subscriptions/listen stream (`first`), or why there was none. */
export type ListenOutcome =
  /** `asked`: the notification types the request's filter asked for. */
  | { kind: 'message'; first: unknown; id: string; asked: string[]; status?: number }
  | { kind: 'none'; reason: string; status?: number }

const ACK = 'notifications/subscriptions/acknowledged'
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId'

export function judgeListen(outcome: ListenOutcome | undefined, transport: 'stdio' | 'http'): CheckResult {
  const j = modernJudge(LISTEN)
  if (!outcome) return j.skip(transport === 'stdio' ? 'not judged over stdio yet' : 'Not testable: no stream was opened')
  if (outcome.kind === 'none') return j.breach(`subscriptions/listen: ${outcome.reason}`)
  const first = outcome.first
  const observed = { details: { first } }
  if (isObject(first) && 'error' in first && !('method' in first)) return j.skip(`not judged: the server refused subscriptions/listen (error ${show(isObject(first.error) ? first.error.code : first.error)}${outcome.status !== undefined ? `, HTTP ${outcome.status}` : ''})`, observed)
  if (!isObject(first) || first.method !== ACK) return j.breach(`the first message of the stream is ${isObject(first) && typeof first.method === 'string' ? show(first.method) : show(first)}, not ${ACK}`, observed)
  const meta = isObject(first.params) ? first.params._meta : undefined
  const id = isObject(meta) ? meta[SUBSCRIPTION_ID] : undefined
  if (id !== outcome.id) return j.breach(`the acknowledgement's _meta["${SUBSCRIPTION_ID}"] is ${id === undefined ? 'absent' : show(id)}, not the request's id ${show(outcome.id)}`, observed, 'id')
  const agreed = isObject(first.params) && isObject(first.params.notifications) ? Object.keys(first.params.notifications) : []
  // The acknowledgement's filter is what the stream will carry ("the subset the server agreed to").
  const unasked = agreed.filter((k) => !outcome.asked.includes(k))
  if (unasked.length) return j.breach(`the acknowledgement agrees to ${list(unasked.map((k) => show(k)))}, which the request did not ask for (it asked for ${list(outcome.asked.map((k) => show(k)))})`, observed, 'unrequested')
  return j.pass(`acknowledged first, under subscription id ${show(outcome.id)}${agreed.length ? `; agreed to ${list(agreed.map((k) => show(k)))}` : '; agreed to no notification type'}`, observed)
}

/** The tool calls the run was allowed to make, each answered (`calls` empty: none was allowed). */
export function judgeInputRequired(calls: Labelled[]): CheckResult {
  const j = modernJudge(INPUT_REQUIRED)
  if (calls.length === 0) return j.skip('Not testable: no tool call allowed (--call)')
  const silent = calls.find((c) => unanswered(c.outcome))
  if (silent) return j.breach(`${silent.label} got ${describeOutcome(silent.outcome)}`, { wire: silent.outcome.wire }, 'reply')
  const asking = calls.filter((c) => c.outcome.kind === 'result' && isObject(c.outcome.result) && c.outcome.result.resultType === 'input_required')
  for (const { label, outcome } of asking) {
    const result = (outcome as { result: Record<string, unknown> }).result
    const requests = isObject(result.inputRequests) ? Object.keys(result.inputRequests) : []
    const methodOf = (key: string) => {
      const request = (result.inputRequests as Record<string, unknown>)[key]
      return isObject(request) ? request.method : undefined
    }
    const foreign = requests.find((k) => !INPUT_METHODS.includes(methodOf(k) as string))
    if (foreign !== undefined) return j.breach(`${label} answered input_required whose inputRequests[${show(foreign, 40)}] has method ${show(methodOf(foreign), 40)}, not elicitation/create, sampling/createMessage or roots/list`, { wire: outcome.wire }, 'kind')
    if (requests.length) return j.breach(`${label} answered input_required asking for ${list(requests.map((k) => show(k, 40)))}, though the request's clientCapabilities declare nothing`, { wire: outcome.wire })
    if (!('inputRequests' in result) && typeof result.requestState !== 'string') return j.breach(`${label} answered input_required with neither inputRequests nor requestState`, { wire: outcome.wire }, 'empty')
  }
  const answered = calls.map((c) => `${c.label}: ${c.outcome.kind === 'result' && isObject(c.outcome.result) ? `resultType ${show(c.outcome.result.resultType)}` : withStatus(c.outcome)}`)
  return j.pass(list(answered, 5))
}
