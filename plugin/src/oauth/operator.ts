import { createLearningRedactor, type LearningRedact } from '@mcp-bridge/process'
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js'
import { codeFlowConfig } from '../auth.ts'
import { secretVariable } from '../auth-config.ts'
import type { Challenge } from '../auth-renewal.ts'
import { parseConfig, type HttpConfig } from '../config.ts'
import type { CredentialStore, SignInRequest } from './contract.ts'
import { withHeaders } from '../http-transport.ts'
import { fetchWithLimits } from '../response-limits.ts'
import { withCredentialsAsHeader } from '../url-credentials.ts'
import { fetchUnder } from './bounded-fetch.ts'
import { AuthorizationCodeFlow } from './flow.ts'
import { resourceCovers } from './urls.ts'

/**
 * What an operator does by hand (`mcp-bridge login` / `logout`), on one bridge entry's config:
 * the `@mcp-bridge/plugin/oauth` entry point. The same flow and store as a running bridge, with
 * its own bound: the person's sign-in may take longer than a connection attempt.
 */

export interface SignInOptions {
  store: CredentialStore
  signIn(request: SignInRequest): Promise<void> | void
  /** Ends the sign-in (the operator's time limit, or Ctrl-C); nothing is left listening. */
  signal: AbortSignal
  /** Learns every secret of the exchange; a fresh one when absent. Quote errors through it. */
  redact?: LearningRedact
}

/** The entry's config, if it is one that signs in; else one line saying why not. */
export function signInConfig(raw: unknown): HttpConfig & { auth: { type: 'authorization_code' } } {
  const config = parseConfig(raw)
  if (config.transport === 'stdio' || config.auth?.type !== 'authorization_code') {
    throw new Error(`server "${config.serverName}" is not configured to sign in: set auth.type to authorization_code on its HTTP entry`)
  }
  return config as HttpConfig & { auth: { type: 'authorization_code' } }
}

/** A person's sign-in to the server of `raw` (a bridge entry's config); the tokens go to the store. */
export async function signInToServer(raw: unknown, options: SignInOptions): Promise<{ serverName: string }> {
  const config = signInConfig(raw)
  const redact = options.redact ?? createLearningRedactor()
  const variable = secretVariable(config.auth)
  const secret = variable ? (process.env[variable.name] ?? '') : ''
  const { url, headers } = withCredentialsAsHeader(config.url, config.headers)
  const serverUrl = new URL(url)
  const limits = { maxBytes: config.limits.maxResultBytes, maxErrorChars: config.limits.maxResultTextChars, redact }
  const fetchFn = fetchUnder(withHeaders(fetchWithLimits(fetch, limits), headers), options.signal)
  const flow = new AuthorizationCodeFlow({
    serverName: config.serverName,
    serverUrl,
    config: codeFlowConfig(config.auth, secret),
    store: options.store,
    signIn: options.signIn,
    learnSecret: (value) => value && redact.learn(value),
  })
  await flow.login(fetchFn, await probe(fetchFn, serverUrl), options.signal)
  return { serverName: config.serverName }
}

/**
 * The server's challenge to a request without a token, for its `resource_metadata` and `scope`
 * (the scope selection starts from it). A server that does not refuse gives none: discovery then
 * uses the well-known URIs.
 */
async function probe(fetchFn: typeof fetch, serverUrl: URL): Promise<Challenge> {
  const answer = await fetchFn(serverUrl, { method: 'GET', headers: { accept: 'application/json, text/event-stream' } })
  await answer.body?.cancel().catch(() => {})
  if (answer.status !== 401 && answer.status !== 403) return {}
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(answer)
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) }
}

/**
 * Forgets the tokens held for the server of `raw`, at every issuer (no network needed); client
 * registrations stay, as they name the bridge, not the person. How many were forgotten.
 */
export async function signOutOfServer(raw: unknown, store: CredentialStore): Promise<{ serverName: string; removed: number }> {
  const config = signInConfig(raw)
  const serverUrl = new URL(withCredentialsAsHeader(config.url, config.headers).url)
  let removed = 0
  for (const issuer of await store.issuers()) {
    const record = await store.load(issuer)
    if (!record) continue
    const covered = Object.keys(record.tokens).filter((resource) => resourceCovers(resource, serverUrl))
    if (!covered.length) continue
    for (const resource of covered) delete record.tokens[resource]
    removed += covered.length
    await store.save(record)
  }
  return { serverName: config.serverName, removed }
}
