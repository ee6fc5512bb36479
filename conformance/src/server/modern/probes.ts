/** Pure verdicts on the modern run's own probes past the lists (./probe-rules.ts; sent by ./probe-run.ts). */
import type { CheckResult } from '../../model.ts'
import { isObject, list, show } from '../check.ts'
import { INVALID_URI, invalidUriVerdict } from '../invalid-uri.ts'
import { compileSchema } from '../schema.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import { CAPABILITY_DECLARED, RESOURCE_READ, STANDARD_ERRORS, TOOL_LIST } from './probe-rules.ts'
import type { Labelled } from './verdicts.ts'

const INVALID_PARAMS = -32602
const METHOD_NOT_FOUND = -32601
const unanswered = (outcome: RpcOutcome) => outcome.kind === 'timeout' || outcome.kind === 'closed'
const withStatus = (outcome: RpcOutcome) => `${describeOutcome(outcome)}${outcome.http?.status !== undefined ? ` with HTTP ${outcome.http.status}` : ''}`

/** One bad-input probe and the sentence case its answer is judged under. */
export interface BadInput extends Labelled {
  ruleCase: 'prompt-name' | 'prompt-arguments' | 'completion-name' | 'completion-arguments' | 'cursor' | 'log-level'
}

export function judgeStandardErrors(probes: BadInput[]): CheckResult {
  const j = modernJudge(STANDARD_ERRORS)
  if (probes.length === 0) return j.skip('Not testable: nothing to send bad input to')
  const silent = probes.find((p) => unanswered(p.outcome))
  // An invalid cursor left without an answer is the one the "gracefully" sentence names; the rest break their own.
  if (silent) return j.breach(`${silent.label} got ${describeOutcome(silent.outcome)}`, { wire: silent.outcome.wire }, silent.ruleCase === 'cursor' ? 'cursor-graceful' : silent.ruleCase)
  const wrong = probes.find((p) => !(p.outcome.kind === 'error' && p.outcome.error.code === INVALID_PARAMS))
  if (wrong) return j.breach(`${wrong.label} got ${withStatus(wrong.outcome)}, not error -32602 Invalid params`, { wire: wrong.outcome.wire }, wrong.ruleCase)
  return j.pass(`${list(probes.map((p) => p.label), 6)}: error -32602`)
}

/** `served`: the list requests of undeclared features; `completion`: completion/complete when completions are undeclared. */
export function judgeCapabilityDeclared(served: (Labelled & { feature: 'tools' | 'prompts' | 'resources' })[], completion: RpcOutcome | undefined): CheckResult {
  const j = modernJudge(CAPABILITY_DECLARED)
  if (served.length === 0 && !completion) return j.skip('Not testable: the DiscoverResult declares tools, prompts, resources and completions')
  for (const { label, outcome, feature } of served) {
    const entries = outcome.kind === 'result' && isObject(outcome.result) ? outcome.result[feature] : undefined
    if (Array.isArray(entries) && entries.length > 0) return j.breach(`${label} listed ${entries.length} ${feature}, though the DiscoverResult does not declare ${feature}`, { wire: outcome.wire }, feature)
  }
  if (completion) {
    if (completion.kind === 'result') return j.breach('completion/complete got a result, though the DiscoverResult does not declare completions', { wire: completion.wire }, 'completions')
    if (!(completion.kind === 'error' && completion.error.code === METHOD_NOT_FOUND)) return j.breach(`completion/complete, with completions undeclared, got ${withStatus(completion)}, not -32601`, { wire: completion.wire }, 'completion-code')
  }
  const asked = [...served.map((s) => s.label), ...(completion ? ['completion/complete'] : [])]
  return j.pass(`${list(asked)}: nothing served without its capability`)
}

const names = (outcome: RpcOutcome | undefined): string[] | undefined => {
  const tools = outcome?.kind === 'result' && isObject(outcome.result) ? outcome.result.tools : undefined
  return Array.isArray(tools) ? tools.map((t) => (isObject(t) ? String(t.name) : '')) : undefined
}
const DIALECT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/

/** `first` and `again`: two tools/list answers in a row (first pages). */
export function judgeToolList(first: RpcOutcome | undefined, again: RpcOutcome | undefined): CheckResult {
  const j = modernJudge(TOOL_LIST)
  const listed = first?.kind === 'result' && isObject(first.result) && Array.isArray(first.result.tools) ? (first.result.tools as unknown[]) : undefined
  if (!listed) return j.skip(`Not testable: no tools/list result${first ? '; modern/lists reports why' : ' (tools not declared)'}`)
  const observed = { wire: first!.wire }
  for (const tool of listed) {
    const name = isObject(tool) ? show(tool.name, 60) : show(tool, 60)
    const schema = isObject(tool) ? tool.inputSchema : undefined
    if (!isObject(schema)) return j.breach(`the inputSchema of ${name} is ${show(schema, 60)}, not a JSON Schema object`, observed, 'object')
    // 2025-11-25 and this revision share the default dialect (2020-12); the kit's schema module reads revisions that have initialize.
    const compiled = compileSchema(schema, '2025-11-25')
    if (compiled.ok === false) return j.breach(`the inputSchema of ${name} ${compiled.reason}`, observed, 'valid')
    if (schema.$schema !== undefined && !(typeof schema.$schema === 'string' && DIALECT_2020_12.test(schema.$schema))) return j.breach(`the inputSchema of ${name} declares $schema ${show(schema.$schema, 80)}, not JSON Schema 2020-12`, observed, 'dialect')
  }
  const a = names(first)!
  const b = names(again)
  if (b && [...a].sort().join('\n') === [...b].sort().join('\n') && a.join('\n') !== b.join('\n')) return j.breach(`tools/list twice returned the same ${a.length} tools in another order (${list(a.map((n) => show(n, 30)), 4)}, then ${list(b.map((n) => show(n, 30)), 4)})`, { wire: again!.wire }, 'order')
  return j.pass(`${listed.length} tools, each inputSchema a valid JSON Schema object${b ? `; the same order on a second tools/list` : ''}`)
}

/** RFC 3986 scheme ":" then characters a URI may hold (unreserved, reserved and percent escapes). */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/
const PERCENT = /%(?![0-9A-Fa-f]{2})/
/** Standard base64 (RFC 4648 section 4), padded: what "base64-encoded" data and blobs must be. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export function uriIssue(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return `${show(uri, 60)} is not a string`
  return URI.test(uri) && !PERCENT.test(uri) ? undefined : `${show(uri, 80)} is not an RFC 3986 URI`
}

const hintsMissing = (result: unknown) => !isObject(result) || !('ttlMs' in result) || !('cacheScope' in result)

/** `listed`: the resources/list result; `read`: resources/read of its first resource; `templates`: resources/templates/list; `invalid`: resources/read of INVALID_URI. */
export function judgeResourceRead(listed: RpcOutcome | undefined, read: Labelled | undefined, templates: RpcOutcome | undefined, invalid?: RpcOutcome): CheckResult {
  const j = modernJudge(RESOURCE_READ)
  const resources = listed?.kind === 'result' && isObject(listed.result) && Array.isArray(listed.result.resources) ? (listed.result.resources as unknown[]) : undefined
  if (!resources) return j.skip(`Not testable: no resources/list result${listed ? '; modern/lists reports why' : ' (resources not declared)'}`)
  const bad = resources.map((r) => uriIssue(isObject(r) ? r.uri : r)).filter((i): i is string => i !== undefined)
  if (bad.length) return j.breach(`resources/list: ${list(bad, 3)}`, { wire: listed!.wire }, 'uri')
  const judged: string[] = [`${resources.length} resource URIs`]
  const refusal = invalid ? invalidUriVerdict(invalid) : undefined
  if (refusal?.kind === 'unanswered') return j.breach(`resources/read of ${show(INVALID_URI)} got ${refusal.how}`, { wire: invalid!.wire }, 'reply')
  if (refusal?.kind === 'served') return j.breach(`resources/read of ${show(INVALID_URI)} got a result: a string that is no URI was served, not refused`, { wire: invalid!.wire }, 'validate')
  if (refusal) judged.push(`resources/read of ${show(INVALID_URI)} refused`)
  if (templates?.kind === 'result' && (templates.result as { resultType?: unknown } | undefined)?.resultType !== 'input_required') {
    if (hintsMissing(templates.result)) return j.breach('the resources/templates/list result has no ttlMs or no cacheScope', { wire: templates.wire }, 'templates')
    judged.push('resources/templates/list with cache hints')
  }
  if (read?.outcome.kind === 'result' && isObject(read.outcome.result) && read.outcome.result.resultType !== 'input_required') {
    const result = read.outcome.result
    if (hintsMissing(result)) return j.breach(`the ${read.label} result has no ttlMs or no cacheScope`, { wire: read.outcome.wire }, 'read')
    const blobs = Array.isArray(result.contents) ? result.contents.filter((c) => isObject(c) && 'blob' in c).map((c) => (c as { blob: unknown }).blob) : []
    const broken = blobs.find((b) => typeof b !== 'string' || !BASE64.test(b))
    if (broken !== undefined) return j.breach(`the ${read.label} result holds a blob that is not base64: ${show(broken, 60)}`, { wire: read.outcome.wire }, 'blob')
    judged.push(`${read.label} with cache hints${blobs.length ? ` and ${blobs.length} base64 blobs` : ''}`)
  }
  return j.pass(judged.join('; '))
}
