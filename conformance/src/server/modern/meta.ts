/** Pure verdicts on _meta keys, serverInfo in every result and MissingRequiredClientCapabilityError (./meta-rules.ts). */
import type { CheckResult } from '../../model.ts'
import { isObject, list, show } from '../check.ts'
import { describeOutcome } from '../wire/types.ts'
import { modernJudge } from './judge.ts'
import { META_KEYS, MISSING_CAPABILITY, RESULT_SERVER_INFO } from './meta-rules.ts'
import type { Labelled } from './verdicts.ts'

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/
const NAME_ENDS = /^[A-Za-z0-9](?:.*[A-Za-z0-9])?$/s
/** W3C Trace Context: version-traceid-parentid-flags, lower-case hex, ids not all zero. */
const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/
/** W3C Trace Context: up to 32 comma-separated key=value list members (empty members allowed). */
const TRACESTATE_MEMBER = /^[ \t]*(?:[a-z0-9][_0-9a-z\-*/]{0,255}|[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e][ \t]*$/
/** W3C Baggage: comma-separated key=value members (a token key; value octets; optional ;properties). */
const BAGGAGE_MEMBER = /^[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=[ \t]*[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*[ \t]*(?:;[^,]*)?$/
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo'
const MISSING_CAPABILITY_CODE = -32021

/** Why a _meta key breaks the naming rules (and under which case), or undefined. */
export function keyIssue(key: string, needsPrefix = false): { issue: string; ruleCase: 'prefix' | 'name' | 'extension' } | undefined {
  const slash = key.lastIndexOf('/')
  if (slash < 0) return needsPrefix ? { issue: `${show(key, 60)} has no prefix`, ruleCase: 'extension' } : nameIssue(key, key)
  const labels = key.slice(0, slash).split('.')
  const bad = labels.find((label) => !LABEL.test(label))
  if (bad !== undefined) return { issue: `${show(key, 60)}: the prefix label ${show(bad, 40)} does not start with a letter and end with a letter or digit (letters, digits and hyphens between)`, ruleCase: needsPrefix ? 'extension' : 'prefix' }
  const issue = nameIssue(key, key.slice(slash + 1))
  return issue && needsPrefix ? { ...issue, ruleCase: 'extension' } : issue
}

function nameIssue(key: string, name: string): { issue: string; ruleCase: 'name' } | undefined {
  if (name === '' || NAME_ENDS.test(name)) return undefined
  return { issue: `${show(key, 60)}: the name ${show(name, 40)} does not begin and end with a letter or digit`, ruleCase: 'name' }
}

/** Why a traceparent or tracestate value breaks W3C Trace Context, or undefined. */
export function traceIssue(key: string, value: unknown): string | undefined {
  if (key === 'traceparent') return typeof value === 'string' && TRACEPARENT.test(value) ? undefined : `traceparent ${show(value, 80)} is not version-traceid-parentid-flags in lower-case hex`
  if (key === 'tracestate') {
    const members = typeof value === 'string' ? value.split(',') : undefined
    const ok = members !== undefined && members.length <= 32 && members.every((m) => m.trim() === '' || TRACESTATE_MEMBER.test(m))
    return ok ? undefined : `tracestate ${show(value, 80)} is not a list of key=value members`
  }
  if (key === 'baggage') {
    const ok = typeof value === 'string' && value.split(',').every((m) => BAGGAGE_MEMBER.test(m))
    return ok ? undefined : `baggage ${show(value, 80)} is not a list of key=value members`
  }
  return undefined
}

const resultOf = (e: Labelled) => (e.outcome.kind === 'result' && isObject(e.outcome.result) ? e.outcome.result : undefined)

/** `extensions`: the DiscoverResult's capabilities.extensions, when it has one. */
export function judgeMetaKeys(exchanges: Labelled[], extensions: unknown): CheckResult {
  const j = modernJudge(META_KEYS)
  const issues: { issue: string; ruleCase: string; label: string }[] = []
  let keys = 0
  for (const e of exchanges) {
    const meta = resultOf(e)?._meta
    if (!isObject(meta)) continue
    for (const [key, value] of Object.entries(meta)) {
      keys++
      const found = keyIssue(key)
      if (found) issues.push({ ...found, label: e.label })
      const trace = traceIssue(key, value)
      if (trace) issues.push({ issue: trace, ruleCase: 'trace', label: e.label })
    }
  }
  const extensionIds = isObject(extensions) ? Object.keys(extensions) : []
  for (const id of extensionIds) {
    const found = keyIssue(id, true)
    if (found) issues.push({ ...found, label: 'server/discover capabilities.extensions' })
  }
  const first = issues[0]
  if (first) return j.breach(`${first.label}: ${first.issue}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`, { details: { problems: issues.slice(0, 20).map((i) => `${i.label}: ${i.issue}`) } }, first.ruleCase)
  if (keys + extensionIds.length === 0) return j.skip('no result carried _meta and no extension is declared; nothing to judge')
  return j.pass(`${keys} _meta keys${extensionIds.length ? ` and ${extensionIds.length} extension identifiers` : ''}, each named as the revision says`)
}

export function judgeResultServerInfo(exchanges: Labelled[]): CheckResult {
  const j = modernJudge(RESULT_SERVER_INFO)
  const results = exchanges.filter((e) => resultOf(e) !== undefined)
  if (results.length === 0) return j.skip('Not testable: no request of the modern run got a result')
  const without = results.filter((e) => {
    const meta = resultOf(e)!._meta
    return !isObject(meta) || !(SERVER_INFO_KEY in meta)
  })
  if (without.length) return j.breach(`${without.length} of ${results.length} results carry no _meta["${SERVER_INFO_KEY}"]: ${list(without.map((e) => e.label))}`, { wire: without[0]!.outcome.wire })
  return j.pass(`all ${results.length} results carry _meta["${SERVER_INFO_KEY}"]`)
}

export function judgeMissingCapability(exchanges: Labelled[], transport: 'stdio' | 'http'): CheckResult {
  const j = modernJudge(MISSING_CAPABILITY)
  const errors = exchanges.filter((e) => e.outcome.kind === 'error' && e.outcome.error.code === MISSING_CAPABILITY_CODE)
  if (errors.length === 0) return j.skip(`no request of the modern run got error ${MISSING_CAPABILITY_CODE}; nothing to judge`)
  for (const e of errors) {
    const error = (e.outcome as { error: { data?: unknown } }).error
    const listed = isObject(error.data) ? error.data.requiredCapabilities : undefined
    if (!isObject(listed) && !Array.isArray(listed)) return j.breach(`${e.label} got ${describeOutcome(e.outcome)} whose data.requiredCapabilities is ${show(listed)}, not the missing capabilities`, { wire: e.outcome.wire })
    if (transport === 'http' && e.outcome.http?.status !== 400) return j.breach(`${e.label} got error ${MISSING_CAPABILITY_CODE} with HTTP ${String(e.outcome.http?.status)}, not 400 Bad Request`, { wire: e.outcome.wire }, 'http-status')
  }
  return j.pass(`${list(errors.map((e) => e.label))}: error ${MISSING_CAPABILITY_CODE} listing data.requiredCapabilities${transport === 'http' ? ', with HTTP 400' : ''}`)
}
