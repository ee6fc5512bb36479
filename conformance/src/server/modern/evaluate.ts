/** Pure verdicts on a server that speaks only modern revisions (see detect.ts for how it is told). */
import type { CheckResult } from '../../model.ts'
import { isObject, list, show, verdict } from '../check.ts'
import { INITIALIZE } from '../registry/lifecycle.ts'
import type { ModernRevision } from '../spec.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { UNSUPPORTED_PROTOCOL_VERSION } from './detect.ts'
import { modernJudge } from './judge.ts'
import { DISCOVER, INITIALIZE_REFUSAL, NOT_YET_JUDGED, NOT_YET_JUDGED_AREAS, SERVER_INFO, UNSUPPORTED_VERSION } from './registry.ts'

const unanswered = (outcome: RpcOutcome) => outcome.kind === 'timeout' || outcome.kind === 'closed'
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo'
/** ServerCapabilities members the schema types as objects. */
const OBJECT_CAPABILITIES = ['experimental', 'extensions', 'logging', 'completions', 'prompts', 'resources', 'tools']

/**
 * lifecycle/initialize for a server that speaks only modern revisions: initialize is no request of
 * theirs ("Legacy: protocol versions that establish a session with an initialize handshake"), so
 * refusing it breaks no rule of the revisions it speaks. A skip that says so, citing nothing.
 */
export function initializeNotJudged(requested: string, supported: string[], refusal: RpcOutcome): CheckResult {
  return verdict(
    INITIALIZE.id,
    INITIALIZE.title,
    'skip',
    `not judged: the server speaks only ${list(supported.map((v) => show(v)))} (modern revisions, which have no initialize handshake) and refused initialize for ${requested} with ${describeOutcome(refusal)}; server/discover tells its era`,
    { wire: refusal.wire },
  )
}

export function judgeInitializeRefusal(refusal: Extract<RpcOutcome, { kind: 'error' }>, supported: string[]): CheckResult {
  const j = modernJudge(INITIALIZE_REFUSAL)
  const observed = { wire: refusal.wire }
  const data = refusal.error.data
  const listed = isObject(data) && Array.isArray(data.supported) ? data.supported.filter((v): v is string => typeof v === 'string') : []
  if (listed.length) return j.pass(`the error lists data.supported: ${list(listed.map((v) => show(v)))}`, observed)
  const text = typeof refusal.error.message === 'string' ? refusal.error.message : ''
  const named = supported.filter((version) => text.includes(version))
  if (named.length) return j.pass(`the error message names ${list(named.map((v) => show(v)))}`, observed)
  return j.breach(`the error to initialize (${describeOutcome(refusal)}) names none of the versions the server supports (${list(supported.map((v) => show(v)))}): a legacy client can tell its user nothing`, observed)
}

/** What in a DiscoverResult breaks the revision's schema, as "field: what is wrong". */
export function discoverIssues(result: unknown): string[] {
  if (!isObject(result)) return [`the result is ${show(result)}, not an object`]
  const issues: string[] = []
  if (typeof result.resultType !== 'string') issues.push(`resultType: required string, found ${show(result.resultType)}`)
  const versions = result.supportedVersions
  if (!Array.isArray(versions) || !versions.every((v) => typeof v === 'string')) issues.push(`supportedVersions: required array of strings, found ${show(versions)}`)
  const capabilities = result.capabilities
  if (!isObject(capabilities)) issues.push(`capabilities: required object, found ${show(capabilities)}`)
  else for (const key of OBJECT_CAPABILITIES) if (key in capabilities && !isObject(capabilities[key])) issues.push(`capabilities.${key}: object, found ${show(capabilities[key])}`)
  if (typeof result.ttlMs !== 'number' || !Number.isFinite(result.ttlMs) || result.ttlMs < 0) issues.push(`ttlMs: required number ≥ 0, found ${show(result.ttlMs)}`)
  if (result.cacheScope !== 'public' && result.cacheScope !== 'private') issues.push(`cacheScope: required "public" or "private", found ${show(result.cacheScope)}`)
  if ('instructions' in result && typeof result.instructions !== 'string') issues.push(`instructions: string, found ${show(result.instructions)}`)
  if ('_meta' in result && !isObject(result._meta)) issues.push(`_meta: object, found ${show(result._meta)}`)
  return issues
}

export function judgeDiscover(outcome: RpcOutcome): CheckResult {
  const j = modernJudge(DISCOVER)
  const observed = { wire: outcome.wire }
  if (unanswered(outcome)) return j.breach(`server/discover got ${describeOutcome(outcome)}`, observed, 'reply')
  if (outcome.kind !== 'result') return j.breach(`server/discover got ${describeOutcome(outcome)}, not a DiscoverResult`, observed)
  const issues = discoverIssues(outcome.result)
  if (issues.length) return j.breach(`the DiscoverResult breaks the schema: ${list(issues, 3)}`, { ...observed, details: { problems: issues } }, 'shape')
  const result = outcome.result as Record<string, unknown>
  const declared = Object.keys(result.capabilities as Record<string, unknown>)
  const summary = `supportedVersions ${list((result.supportedVersions as string[]).map((v) => show(v)))}; ${declared.length ? `declares ${list(declared.map((k) => show(k, 40)), 10)}` : 'declares no capabilities'}; ttlMs ${String(result.ttlMs)}, cacheScope ${String(result.cacheScope)}`
  return j.pass(summary, observed)
}

export function judgeDiscoverServerInfo(outcome: RpcOutcome): CheckResult {
  const j = modernJudge(SERVER_INFO)
  if (outcome.kind !== 'result' || !isObject(outcome.result)) return j.skip(`Not testable: server/discover returned no result; ${DISCOVER.id} reports the failure`)
  const meta = outcome.result._meta
  const info = isObject(meta) ? meta[SERVER_INFO_KEY] : undefined
  if (info === undefined) return j.breach(`the DiscoverResult has no _meta["${SERVER_INFO_KEY}"]`, { details: { _meta: meta ?? null } })
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
    return j.breach(`_meta["${SERVER_INFO_KEY}"] is ${show(info)}, not an Implementation with string name and version`, { details: info }, 'shape')
  }
  return j.pass(`${show(info.name)} ${show(info.version)}`, { details: info })
}

/** The answer to server/discover asking for a revision nobody supports (`sent`), over `transport`. */
export function judgeModernUnsupportedVersion(outcome: RpcOutcome, sent: string, transport: 'stdio' | 'http'): CheckResult {
  const j = modernJudge(UNSUPPORTED_VERSION)
  const observed = { wire: outcome.wire }
  if (unanswered(outcome)) return j.breach(`server/discover for ${sent} got ${describeOutcome(outcome)}`, observed, 'reply')
  if (outcome.kind !== 'error') return j.breach(`server/discover for ${sent} got ${describeOutcome(outcome)}, not UnsupportedProtocolVersionError`, observed)
  if (outcome.error.code !== UNSUPPORTED_PROTOCOL_VERSION) return j.breach(`server/discover for ${sent} got ${describeOutcome(outcome)}, not UnsupportedProtocolVersionError (${UNSUPPORTED_PROTOCOL_VERSION})`, observed)
  const data = outcome.error.data
  const problems: string[] = []
  if (typeof outcome.error.message !== 'string') problems.push(`error.message: required string, found ${show(outcome.error.message)}`)
  if (!isObject(data)) problems.push(`error.data: required object, found ${show(data)}`)
  else {
    if (!Array.isArray(data.supported) || !data.supported.every((v) => typeof v === 'string')) problems.push(`error.data.supported: required array of strings, found ${show(data.supported)}`)
    if (typeof data.requested !== 'string') problems.push(`error.data.requested: required string, found ${show(data.requested)}`)
  }
  if (problems.length) return j.breach(`the error breaks UnsupportedProtocolVersionError: ${list(problems, 3)}`, { ...observed, details: { problems } }, 'shape')
  const status = outcome.http?.status
  if (transport === 'http' && status !== 400) return j.breach(`the error came with HTTP ${String(status)}, not 400 Bad Request`, observed, 'http-status')
  const supported = (data as { supported: string[] }).supported
  return j.pass(`error ${UNSUPPORTED_PROTOCOL_VERSION} lists supported ${list(supported.map((v) => show(v)))}${transport === 'http' ? ', with HTTP 400' : ''}`, observed)
}

/** The rest of the revision: named, never judged (a skip, so it cannot fail a correct server). */
export function notYetJudged(revision: ModernRevision): CheckResult {
  return verdict(NOT_YET_JUDGED.id, NOT_YET_JUDGED.title, 'skip', `MCP ${revision} is judged only by the modern/* checks of this run; not implemented yet: ${NOT_YET_JUDGED_AREAS.join('; ')}`)
}

/** A server whose every version is modern but none is one the kit can judge. */
export function revisionNotJudged(supported: string[]): CheckResult {
  return verdict(NOT_YET_JUDGED.id, NOT_YET_JUDGED.title, 'skip', `the server speaks only ${list(supported.map((v) => show(v)))}, modern revisions this kit does not judge yet`)
}

/**
 * A run pinned to a modern revision, against a server that does not speak it: its server/discover
 * answer was no DiscoverResult listing the revision (an error such as -32601 marks a legacy server,
 * MCP 2026-07-28 basic/versioning). Nothing of the revision to judge: a skip, never a failure.
 */
export function revisionNotSpoken(revision: ModernRevision, outcome: RpcOutcome): CheckResult {
  const answered = outcome.kind === 'result' ? 'a result that does not list it in supportedVersions' : outcome.kind === 'error' ? `error ${outcome.error.code}${outcome.http ? ` (HTTP ${outcome.http.status})` : ''}` : outcome.kind === 'closed' ? 'nothing: the connection closed' : 'nothing within the request timeout'
  return verdict(NOT_YET_JUDGED.id, NOT_YET_JUDGED.title, 'skip', `not judged: the server does not speak ${revision} (server/discover, sent the ${revision} way, answered ${answered})`)
}
