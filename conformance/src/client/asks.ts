import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult, SpecRef } from '../model.ts'
import { atLeast } from '../server/spec.ts'
import {
  declareRule,
  ELICITATION_MODE,
  ELICITATION_VALIDATE,
  elicitContentNote,
  elicitResultSchema,
  featureIn,
  ROOT_URI,
  ROOTS_ERRORS,
  rootsResultSchema,
  samplingResultSchema,
  samplingToolsRule,
  type AskFeature,
} from './asks-rules.ts'
import { checkElicitationComplete } from './elicitation-complete.ts'
import { citeRule, clientSpec, runRevision } from './rules.ts'

/**
 * Pure: how the client answered what the server asked of it (roots, sampling, elicitation),
 * whichever way the asks came: legacy server requests and their responses, or 2026-07-28
 * `inputRequests` of an `input_required` result and the `inputResponses` of the retry. Judged
 * only in runs where the server asked, so other scenarios gain no check. A breach's status comes
 * from the sentence cited (MUST or schema: fail; SHOULD: warn; no keyword: information).
 */

const FEATURES: Record<string, AskFeature> = { 'roots/list': 'roots', 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation' }

type Answer = { result: unknown } | { error: { code?: unknown; message?: unknown } } | undefined

export interface Ask {
  method: string
  params: Record<string, unknown>
  answer: Answer
  /** The capabilities the client declared where it could answer this ask. */
  capabilities: Record<string, unknown>
  modern: boolean
}

/** Pure: every ask in the wire with the client's answer (undefined: none) and its declared capabilities. */
export function collectAsks(wire: WireEntry[]): Ask[] {
  const asks: Ask[] = []
  const open = new Map<string, Ask>()
  let legacyCaps: Record<string, unknown> = {}
  let pending: Map<string, Ask> | undefined
  for (const { dir, msg } of wire) {
    const m = msg as { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown } }
    if (dir === 'recv' && m.method === 'initialize') legacyCaps = objectOr(m.params?.capabilities)
    if (dir === 'send' && m.method !== undefined && FEATURES[m.method] && m.id !== undefined) {
      const ask: Ask = { method: m.method, params: objectOr(m.params), answer: undefined, capabilities: legacyCaps, modern: false }
      asks.push(ask)
      open.set(JSON.stringify(m.id), ask)
    } else if (dir === 'recv' && m.method === undefined && open.has(JSON.stringify(m.id))) {
      const ask = open.get(JSON.stringify(m.id))!
      open.delete(JSON.stringify(m.id))
      ask.answer = m.error !== undefined ? { error: m.error } : { result: m.result }
    } else if (dir === 'send' && m.result?.resultType === 'input_required') {
      pending = new Map()
      for (const [key, request] of Object.entries(objectOr(m.result.inputRequests))) {
        const { method, params } = request as { method?: string; params?: unknown }
        if (typeof method !== 'string' || !FEATURES[method]) continue
        const ask: Ask = { method, params: objectOr(params), answer: undefined, capabilities: {}, modern: true }
        asks.push(ask)
        pending.set(key, ask)
      }
    } else if (dir === 'recv' && m.method !== undefined && pending && m.params?.inputResponses !== undefined) {
      const responses = objectOr(m.params.inputResponses)
      const caps = objectOr(objectOr(m.params._meta)['io.modelcontextprotocol/clientCapabilities'])
      for (const [key, ask] of pending) {
        ask.capabilities = caps
        if (key in responses) ask.answer = { result: responses[key] }
      }
      pending = undefined
    }
  }
  return asks
}

export function checkAsks(wire: WireEntry[], revision: string = runRevision(wire)): CheckResult[] {
  const asks = collectAsks(wire)
  const checks: CheckResult[] = [...rootsListChanged(wire, revision), ...checkElicitationComplete(wire, revision)]
  if (!asks.length) return checks
  for (const feature of ['roots', 'sampling', 'elicitation'] as const) {
    const mine = asks.filter((ask) => FEATURES[ask.method] === feature)
    if (!mine.length || !featureIn(feature, revision)) continue
    const undeclared = mine.filter((ask) => ask.capabilities[feature] === undefined)
    if (undeclared.length) checks.push(undeclaredCheck(feature, undeclared, revision))
    const declared = mine.filter((ask) => ask.capabilities[feature] !== undefined)
    if (!declared.length) continue
    if (feature === 'roots') checks.push(...rootsChecks(declared, revision))
    if (feature === 'sampling') checks.push(...samplingChecks(declared, revision))
    if (feature === 'elicitation') checks.push(...elicitationChecks(declared, revision))
  }
  return checks
}

function check(id: string, title: string, problems: string[], passed: string, spec: SpecRef): CheckResult {
  if (problems.length) return { id, title, status: 'fail', message: `${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}`, spec }
  return { id, title, status: 'pass', message: passed, spec }
}

/** A client that answers an ask with a result supports the feature: it MUST have declared it. */
function undeclaredCheck(feature: AskFeature, asks: Ask[], revision: string): CheckResult {
  const answered = asks.filter((ask) => ask.answer !== undefined && 'result' in ask.answer)
  const refused = asks.filter((ask) => ask.answer !== undefined && 'error' in ask.answer).length
  const title = `A client that did not declare ${feature} does not answer ${asks[0]!.method} with a result`
  const problems = answered.map((ask) => `${ask.method} answered with a result (${brief(ask.answer)}) though the client declared no "${feature}" capability`)
  const outcome = check(`asks/${feature}-undeclared`, title, problems, `${asks.length} ask(s) of an undeclared capability: ${refused} refused with an error, ${asks.length - refused} left without an answer${asks.some((ask) => ask.modern) ? ' (at 2026-07-28: the call not retried with one)' : ''}`, declareRule(feature, revision))
  if (outcome.status === 'fail' || feature !== 'roots') return outcome
  // Roots name the error to answer: a client that says nothing, or another code, misses a SHOULD.
  const wrong = asks.filter((ask) => !ask.modern && !(ask.answer && 'error' in ask.answer && ask.answer.error.code === -32601))
  if (!wrong.length) return outcome
  return { ...outcome, status: 'warn', message: `${wrong.length} roots/list ask(s) were not refused with -32601 (${brief(wrong[0]!.answer)})`, spec: citeRule(ROOTS_ERRORS, revision) }
}

function rootsChecks(asks: Ask[], revision: string): CheckResult[] {
  const shape: string[] = []
  const uris: string[] = []
  for (const ask of answeredResults(asks)) {
    const roots = (ask.result as { roots?: unknown }).roots
    if (!Array.isArray(roots)) {
      shape.push(`roots/list answered ${brief({ result: ask.result })}, with no roots array`)
      continue
    }
    for (const root of roots) {
      const uri = (root as { uri?: unknown } | null)?.uri
      if (typeof uri !== 'string') shape.push(`a root without a string uri: ${brief({ result: root })}`)
      else if (!uri.startsWith('file://')) uris.push(`root ${JSON.stringify(uri.slice(0, 80))} is not a file:// URI`)
    }
  }
  const n = answeredResults(asks).length
  return [
    check('asks/roots-result', 'Every roots/list answer is a ListRootsResult', shape, `${n} roots/list answer(s), each a list of roots`, rootsResultSchema(revision)),
    check('asks/roots-file-uri', 'Every root a client lists is a file:// URI', uris, `${n} roots/list answer(s), every root a file:// URI`, citeRule(ROOT_URI, revision)),
  ]
}

/**
 * notifications/roots/list_changed from a client that did not declare `roots.listChanged`: using a
 * capability never negotiated. Judged only where a client sent one.
 */
function rootsListChanged(wire: WireEntry[], revision: string): CheckResult[] {
  let declared = false
  let sent = 0
  let undeclared = 0
  for (const { dir, msg } of wire) {
    const m = msg as { method?: string; params?: { capabilities?: { roots?: { listChanged?: unknown } } } }
    if (dir === 'recv' && m.method === 'initialize') declared = m.params?.capabilities?.roots?.listChanged === true
    if (dir === 'recv' && m.method === 'notifications/roots/list_changed') {
      sent++
      if (!declared) undeclared++
    }
  }
  if (!sent) return []
  const title = 'notifications/roots/list_changed comes only from a client that declared roots.listChanged'
  const problems = undeclared ? [`${undeclared} notifications/roots/list_changed sent without roots.listChanged declared`] : []
  return [check('asks/roots-list-changed-declared', title, problems, `${sent} notification(s), roots.listChanged declared`, clientSpec('capabilities/negotiated', revision))]
}

function samplingChecks(asks: Ask[], revision: string): CheckResult[] {
  const checks: CheckResult[] = []
  if (atLeast(revision, '2025-11-25')) {
    const withTools = asks.filter((ask) => ask.params.tools !== undefined && objectOr(ask.capabilities.sampling).tools === undefined)
    const answered = withTools.filter((ask) => ask.answer === undefined ? !ask.modern : 'result' in ask.answer)
    if (withTools.length) checks.push(check('asks/sampling-tools-undeclared', 'A tool-enabled sampling request to a client without sampling.tools is answered with an error', answered.map((ask) => `answered ${brief(ask.answer)}, not an error, though sampling.tools was not declared`), `${withTools.length} tool-enabled ask(s) refused`, samplingToolsRule(revision)))
  }
  const problems: string[] = []
  for (const ask of answeredResults(asks)) {
    const result = ask.result as { role?: unknown; content?: unknown; model?: unknown }
    if (!['user', 'assistant'].includes(result.role as string) || typeof result.content !== 'object' || result.content === null || typeof result.model !== 'string') {
      problems.push(`sampling/createMessage answered ${brief({ result })}, not a CreateMessageResult (role, content, model)`)
    }
  }
  checks.push(check('asks/sampling-result', 'Every sampling/createMessage answer is a CreateMessageResult', problems, `${answeredResults(asks).length} sampling answer(s), each a CreateMessageResult`, samplingResultSchema(revision)))
  return checks
}

function elicitationChecks(asks: Ask[], revision: string): CheckResult[] {
  const checks: CheckResult[] = []
  const url = asks.filter((ask) => ask.params.mode === 'url')
  const undeclaredUrl = url.filter((ask) => objectOr(ask.capabilities.elicitation).url === undefined)
  if (undeclaredUrl.length && atLeast(revision, ELICITATION_MODE.from)) {
    const problems = undeclaredUrl.flatMap((ask) => {
      if (ask.answer === undefined) return ask.modern ? [] : ['a URL-mode elicitation/create was never answered']
      if ('result' in ask.answer) return [`a URL-mode elicitation/create was answered with a result (${brief(ask.answer)}) though the client declared no "url" mode`]
      return ask.answer.error.code === -32602 ? [] : [`a URL-mode elicitation/create was refused with ${String(ask.answer.error.code)}, not -32602`]
    })
    checks.push(check('asks/elicitation-undeclared-mode', 'An elicitation in a mode the client did not declare is refused with -32602', problems, `${undeclaredUrl.length} URL-mode ask(s) refused`, citeRule(ELICITATION_MODE, revision)))
  }
  const results = answeredResults(asks)
  if (!results.length) return checks
  const shape: string[] = []
  const stray: string[] = []
  const invalid: string[] = []
  for (const ask of results) {
    const result = ask.result as { action?: unknown; content?: unknown }
    if (!['accept', 'decline', 'cancel'].includes(result.action as string)) {
      shape.push(`elicitation/create answered ${brief({ result })}, whose action is not accept, decline or cancel`)
      continue
    }
    const form = ask.params.mode === undefined || ask.params.mode === 'form'
    if (result.content !== undefined && (result.action !== 'accept' || !form)) stray.push(`content sent with action "${String(result.action)}"${form ? '' : ' to a URL-mode ask'}`)
    if (result.action === 'accept' && form) invalid.push(...formProblems(objectOr(ask.params.requestedSchema), result.content))
  }
  checks.push(check('asks/elicitation-result', 'Every elicitation/create answer is an ElicitResult', shape, `${results.length} elicitation answer(s), each with an action`, elicitResultSchema(revision)))
  checks.push(check('asks/elicitation-content-only-on-accept', 'Content is sent only with a form accepted', stray, `${results.length} elicitation answer(s), content only with a form accepted`, elicitContentNote(revision)))
  if (atLeast(revision, ELICITATION_VALIDATE.from)) {
    const validated = check('asks/elicitation-content-valid', 'Accepted form content fits the requested schema', invalid, 'every accepted form fits its requested schema', citeRule(ELICITATION_VALIDATE, revision))
    checks.push(validated.status === 'fail' ? { ...validated, status: 'warn' } : validated)
  }
  return checks
}

/** Pure: where accepted content misses the requested schema (required fields, primitive types, enums). */
export function formProblems(schema: Record<string, unknown>, content: unknown): string[] {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return [`accepted content ${brief({ result: content })} is not an object`]
  const values = content as Record<string, unknown>
  const properties = objectOr(schema.properties)
  const problems: string[] = []
  for (const name of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof name === 'string' && values[name] === undefined) problems.push(`required field "${name.slice(0, 40)}" missing`)
  }
  for (const [name, value] of Object.entries(values)) {
    const property = objectOr(properties[name])
    if (!(name in properties)) problems.push(`field "${name.slice(0, 40)}" is not in the requested schema`)
    else if (!fits(property, value)) problems.push(`field "${name.slice(0, 40)}" = ${JSON.stringify(value)?.slice(0, 60)} does not fit ${JSON.stringify(property).slice(0, 120)}`)
  }
  return problems
}

function fits(property: Record<string, unknown>, value: unknown): boolean {
  const type = property.type
  const enumValues = Array.isArray(property.enum) ? property.enum : undefined
  if (type === 'string') return typeof value === 'string' && (!enumValues || enumValues.includes(value))
  if (type === 'number') return typeof value === 'number'
  if (type === 'integer') return Number.isInteger(value)
  if (type === 'boolean') return typeof value === 'boolean'
  if (type === 'array') return Array.isArray(value) && value.every((item) => typeof item === 'string')
  return true
}

function answeredResults(asks: Ask[]): Array<Ask & { result: unknown }> {
  return asks.flatMap((ask) => (ask.answer && 'result' in ask.answer ? [{ ...ask, result: ask.answer.result }] : []))
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/** A bounded view of an answer: its text is the client's, so it is cut short. */
function brief(answer: Answer): string {
  if (answer === undefined) return 'no answer'
  if ('error' in answer) return `error ${String(answer.error.code)}`
  const text = JSON.stringify(answer.result) ?? String(answer.result)
  return text.length > 120 ? `${text.slice(0, 120)}…` : text
}
