/**
 * Pure: the authorization verdicts (../registry/auth.ts, ../modern/auth-rules.ts) from what
 * ../probe/auth.ts saw. Every check is not applicable unless the server asks for authorization:
 * a server without it breaks none of these sentences.
 */
import type { CheckResult } from '../../model.ts'
import { isObject, judge, show, type Judge, type Observed } from '../check.ts'
import { modernJudge } from '../modern/judge.ts'
import { MODERN_INVALID_TOKEN, MODERN_NO_CREDENTIALS, MODERN_OFFLINE_ACCESS, MODERN_RESOURCE_METADATA, MODERN_SCOPE_HINT } from '../modern/auth-rules.ts'
import { INVALID_TOKEN, METADATA_LOCATION, NO_CREDENTIALS, RESOURCE_METADATA, SCOPE_HINT, SERVER_METADATA } from '../registry/auth.ts'
import type { CheckDef } from '../registry/types.ts'
import { cut } from '../quote.ts'
import { atLeast } from '../spec.ts'
import { bearerChallenge, scopesOf } from './auth-challenge.ts'

/** One bounded HTTP exchange of the probe. */
export interface HttpAnswer {
  method: 'GET' | 'POST' | 'DELETE'
  url: string
  status?: number
  /** The WWW-Authenticate header, cut. */
  challenge?: string
  /** The body, when it was a JSON document within the size bound. */
  json?: unknown
  /** No HTTP answer: the network error or the deadline, cut. */
  error?: string
}

export interface AuthObservation {
  /** initialize POSTed without credentials. */
  anonymous: HttpAnswer
  /** The rest is probed only when the server asks for authorization. */
  invalidToken?: HttpAnswer
  /** The document the challenge's resource_metadata names. */
  named?: HttpAnswer
  /** RFC 9728 §3.1 well-known URIs: path-inserted first, then the root. */
  wellKnown: HttpAnswer[]
  /** RFC 8414 §3 at the authorization base URL (2025-03-26): the root first, then path-inserted. */
  serverMetadata: HttpAnswer[]
  /** 2025-03-26 default endpoints (GET /authorize, POST /token), asked only when no metadata was found. */
  fallback: HttpAnswer[]
}

/** What a verdict needs of a judge: the legacy and the modern ones both have it. */
interface AuthJudge {
  pass(message: string, observed?: Observed): CheckResult
  breach(message: string, observed?: Observed, ruleCase?: string): CheckResult
  skip(message: string, observed?: Observed): CheckResult
}

export function asksForAuthorization(obs: AuthObservation): boolean {
  // A refusal that asks for a token. A challenge on an answer that serves the request (optional
  // authorization, as a server reachable without a key gives) requires nothing of the client.
  const { status, challenge } = obs.anonymous
  return status === 401 || (status !== undefined && status >= 400 && bearerChallenge(challenge) !== undefined)
}

/** Some address gave no HTTP answer at all (a network the kit cannot reach): nothing to judge by. */
const unanswered = (answers: HttpAnswer[]) => answers.find((a) => a.status === undefined)

const got = (a: HttpAnswer) => (a.status !== undefined ? `HTTP ${a.status}` : `no answer (${a.error ?? 'unknown'})`)
/** Evidence: the exchanges, with the server's header and document redacted and cut (quote.ts). */
const seen = (...answers: (HttpAnswer | undefined)[]): Observed => ({
  details: answers
    .filter((a) => a !== undefined)
    .map(({ challenge, json, ...rest }) => ({
      ...rest,
      ...(challenge !== undefined ? { challenge: cut(challenge, 600) } : {}),
      ...(json !== undefined ? { document: cut(JSON.stringify(json), 2_000) } : {}),
    })),
})

/** What a WWW-Authenticate header holds, without quoting values a redactor would hide anyway. */
function describeChallenge(header: string | undefined): string {
  if (header === undefined) return 'no WWW-Authenticate header'
  const challenge = bearerChallenge(header)
  if (!challenge) return `WWW-Authenticate without a Bearer challenge: ${show(header)}`
  const names = Object.keys(challenge.params)
  return `a Bearer challenge with ${names.length > 0 ? names.map((n) => show(n, 40)).join(', ') : 'no parameters'}`
}

/** The skip every check gives a server that does not ask for authorization, or undefined. */
function notApplicable(j: AuthJudge, obs: AuthObservation): CheckResult | undefined {
  if (asksForAuthorization(obs)) return undefined
  const a = obs.anonymous
  if (a.status === undefined) return j.skip(`Not testable: initialize without credentials got ${got(a)}`, seen(a))
  return j.skip(`Not applicable: initialize without credentials got ${got(a)} and no Bearer challenge, so the server does not ask for authorization`, seen(a))
}

function judgeNoCredentials(j: AuthJudge, obs: AuthObservation): CheckResult {
  const a = obs.anonymous
  const skip = notApplicable(j, obs)
  if (skip) return skip
  if (a.status === 401) return j.pass(`initialize without credentials got 401 Unauthorized with ${describeChallenge(a.challenge)}`, seen(a))
  return j.breach(`initialize without credentials got ${got(a)} with ${describeChallenge(a.challenge)}, not 401 Unauthorized`, seen(a))
}

function judgeInvalidToken(j: AuthJudge, obs: AuthObservation): CheckResult {
  const skip = notApplicable(j, obs)
  if (skip) return skip
  const t = obs.invalidToken
  if (t?.status === undefined) return j.skip(`Not testable: initialize with a bearer token no server issued got ${t ? got(t) : 'nothing'}`, seen(t))
  if (t.status !== 401) {
    const accepted = t.status < 300 ? ': the token was accepted' : ''
    return j.breach(`initialize with a bearer token no server issued got HTTP ${t.status}, not 401 Unauthorized${accepted}`, seen(t))
  }
  const challenge = bearerChallenge(t.challenge)
  if (!challenge) return j.breach(`the 401 to a bearer token no server issued has no Bearer challenge (${describeChallenge(t.challenge)})`, seen(t), 'challenge')
  const error = challenge.params.error
  return j.pass(`a bearer token no server issued got 401 with a Bearer challenge${error ? ` (error=${show(error, 40)})` : ' (without an error code, which OAuth 2.1 §5.3.1 only recommends)'}`, seen(t))
}

const documentAt = (answers: HttpAnswer[]) => answers.find((a) => a.status === 200 && isObject(a.json))

function judgeLocation(j: AuthJudge, obs: AuthObservation, eitherMechanism: boolean): CheckResult {
  const skip = notApplicable(j, obs)
  if (skip) return skip
  const a = obs.anonymous
  const named = bearerChallenge(a.challenge)?.params.resource_metadata
  if (named) return j.pass(`the challenge names the metadata: resource_metadata=${show(named)}`, seen(a))
  const without = `the ${got(a)} to a request without credentials has no resource_metadata in a Bearer challenge (${describeChallenge(a.challenge)})`
  if (!eitherMechanism) return j.breach(without, seen(a))
  const found = documentAt(obs.wellKnown)
  if (found) return j.pass(`${without}, and the metadata is at the well-known URI ${show(found.url)}`, seen(a, found))
  const lost = unanswered(obs.wellKnown)
  if (lost) return j.skip(`Not testable: ${without}, and the well-known URI ${show(lost.url)} gave ${got(lost)}`, seen(a, ...obs.wellKnown))
  return j.breach(`${without}, nor is there a JSON document at a well-known URI (${obs.wellKnown.map((w) => `${w.url}: ${got(w)}`).join('; ')})`, seen(a, ...obs.wellKnown))
}

/** The document a client reads: the one the challenge names, else the first at a well-known URI. */
function resourceMetadata(obs: AuthObservation): { doc?: HttpAnswer; tried: HttpAnswer[] } {
  const tried = obs.named ? [obs.named] : obs.wellKnown
  return { doc: documentAt(tried), tried }
}

function judgeResourceMetadata(j: AuthJudge, obs: AuthObservation, needsServers: boolean): CheckResult {
  const skip = notApplicable(j, obs)
  if (skip) return skip
  const { doc, tried } = resourceMetadata(obs)
  const lost = doc ? undefined : unanswered(tried)
  if (lost) return j.skip(`Not testable: the Protected Resource Metadata at ${show(lost.url)} gave ${got(lost)}`, seen(...tried))
  if (!doc) return j.breach(`no Protected Resource Metadata document: ${tried.map((t) => `${t.url}: ${got(t)}${t.status === 200 ? ' but no JSON object' : ''}`).join('; ')}`, seen(...tried))
  if (!needsServers) return j.pass(`the Protected Resource Metadata is at ${show(doc.url)}`, seen(doc))
  const servers = (doc.json as Record<string, unknown>).authorization_servers
  const valid = Array.isArray(servers) && servers.length > 0 && servers.every((s) => typeof s === 'string' && s.length > 0)
  if (!valid) return j.breach(`the Protected Resource Metadata at ${show(doc.url)} has authorization_servers ${servers === undefined ? 'missing' : show(servers)}, not a non-empty array of URLs`, seen(doc), 'authorization-servers')
  return j.pass(`the Protected Resource Metadata at ${show(doc.url)} names ${servers.length} authorization server(s)`, seen(doc))
}

function judgeScopeHint(j: AuthJudge, obs: AuthObservation): CheckResult {
  const skip = notApplicable(j, obs)
  if (skip) return skip
  const a = obs.anonymous
  const scope = bearerChallenge(a.challenge)?.params.scope
  if (scope === undefined) return j.breach(`the challenge to a request without credentials carries no scope parameter (${describeChallenge(a.challenge)})`, seen(a))
  return j.pass(`the challenge names the scopes: scope=${show(scope)}`, seen(a))
}

function judgeOfflineAccess(j: AuthJudge, obs: AuthObservation): CheckResult {
  const skip = notApplicable(j, obs)
  if (skip) return skip
  const a = obs.anonymous
  const { doc } = resourceMetadata(obs)
  const supported = doc && isObject(doc.json) && Array.isArray(doc.json.scopes_supported) ? doc.json.scopes_supported : []
  if (scopesOf(bearerChallenge(a.challenge)?.params.scope).includes('offline_access')) return j.breach('the WWW-Authenticate scope of the 401 lists offline_access', seen(a))
  if (supported.includes('offline_access')) return j.breach(`scopes_supported of the Protected Resource Metadata at ${show(doc!.url)} lists offline_access`, seen(doc))
  return j.pass('neither the challenge’s scope nor scopes_supported lists offline_access', seen(a, doc))
}

function judgeServerMetadata(j: Judge, obs: AuthObservation): CheckResult {
  const skip = notApplicable(j, obs)
  if (skip) return skip
  const [root, pathInserted] = obs.serverMetadata
  const listed = (answers: HttpAnswer[]) => answers.map((a) => `${a.method} ${a.url}: ${got(a)}`).join('; ')
  if (root && documentAt([root])) return j.pass(`the authorization server metadata is at ${show(root.url)}`, seen(root))
  if (pathInserted && documentAt([pathInserted])) {
    return j.breach(`the authorization server metadata is at ${show(pathInserted.url)}, not at the authorization base URL ${show(root?.url)} (${root ? got(root) : 'not asked'})`, seen(...obs.serverMetadata), 'location')
  }
  const lost = unanswered(obs.serverMetadata)
  if (lost) return j.skip(`Not testable: the authorization server metadata at ${show(lost.url)} gave ${got(lost)}`, seen(...obs.serverMetadata))
  const answering = obs.fallback.filter((a) => a.status !== undefined && a.status !== 404)
  if (answering.length > 0) return j.softened(`no authorization server metadata (${listed(obs.serverMetadata)}); the default endpoints answer instead (${listed(obs.fallback)})`, seen(...obs.serverMetadata, ...obs.fallback))
  return j.breach(`no authorization server metadata (${listed(obs.serverMetadata)}) and no default endpoints (${listed(obs.fallback)})`, seen(...obs.serverMetadata, ...obs.fallback), 'fallback')
}

type Verdict<J> = (j: J, obs: AuthObservation, revision: string) => CheckResult

const LEGACY: [CheckDef, Verdict<Judge>][] = [
  [NO_CREDENTIALS, judgeNoCredentials],
  [INVALID_TOKEN, judgeInvalidToken],
  [SERVER_METADATA, judgeServerMetadata],
  [METADATA_LOCATION, (j, obs, v) => judgeLocation(j, obs, atLeast(v, '2025-11-25'))],
  [RESOURCE_METADATA, (j, obs) => judgeResourceMetadata(j, obs, true)],
  [SCOPE_HINT, judgeScopeHint],
]

/** The authorization checks of an initialize-based revision. */
export function judgeAuth(obs: AuthObservation, revision: string): CheckResult[] {
  return LEGACY.map(([def, verdict]) => {
    const j = judge(def, revision)
    return j.applies ? verdict(j, obs, revision) : j.notInRevision()
  })
}

/** The authorization checks of 2026-07-28. */
export function judgeModernAuth(obs: AuthObservation): CheckResult[] {
  return [
    judgeNoCredentials(modernJudge(MODERN_NO_CREDENTIALS), obs),
    judgeInvalidToken(modernJudge(MODERN_INVALID_TOKEN), obs),
    judgeResourceMetadata(modernJudge(MODERN_RESOURCE_METADATA), obs, false),
    judgeScopeHint(modernJudge(MODERN_SCOPE_HINT), obs),
    judgeOfflineAccess(modernJudge(MODERN_OFFLINE_ACCESS), obs),
  ]
}
