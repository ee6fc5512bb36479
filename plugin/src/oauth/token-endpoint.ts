import { parseErrorResponse } from '@modelcontextprotocol/sdk/client/auth.js'
import { tokenAuthMethod, type ClientIdentity } from './client-identity.ts'
import { jsonOf } from './discover.ts'
import { MetadataError, type ServerMetadata } from './metadata.ts'

/**
 * The back channel of the authorization-code grant: the token endpoint (RFC 6749 §4.1.3 and §6)
 * and dynamic registration (RFC 7591). `fetchFn` carries the bounds of time and bytes (auth.ts's
 * fetchUnder over response-limits.ts); a refusal comes back as the SDK's OAuthError of its code,
 * so auth-renewal.ts tells it from an outage as it does for the other grants.
 */

export interface Tokens {
  accessToken: string
  refreshToken?: string
  /** Date.now() after which the access token is said to have expired. */
  expiresAt?: number
  scope?: string
}

/** The longest error body quoted: the rest of an error page tells nothing more. */
const MAX_ERROR_BODY_CHARS = 2_000

export async function exchangeCode(
  fetchFn: typeof fetch,
  server: ServerMetadata,
  client: ClientIdentity,
  grant: { code: string; verifier: string; redirectUri: string; resource: string },
): Promise<Tokens> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: grant.code, code_verifier: grant.verifier, redirect_uri: grant.redirectUri, resource: grant.resource })
  return tokenRequest(fetchFn, server, client, form, undefined)
}

/**
 * RFC 6749 §6 with the resource (RFC 8707 §2). A response without a refresh token keeps the one
 * used (OAuth 2.1 §4.3.1: the server may or may not rotate it).
 */
export async function refreshTokens(fetchFn: typeof fetch, server: ServerMetadata, client: ClientIdentity, refreshToken: string, resource: string): Promise<Tokens> {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, resource })
  return tokenRequest(fetchFn, server, client, form, refreshToken)
}

async function tokenRequest(fetchFn: typeof fetch, server: ServerMetadata, client: ClientIdentity, form: URLSearchParams, refreshToken: string | undefined): Promise<Tokens> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
  const method = tokenAuthMethod(client, server)
  if (method === 'client_secret_basic') {
    // RFC 6749 §2.3.1: each part form-encoded before the Basic encoding.
    const encode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+')
    headers.authorization = `Basic ${Buffer.from(`${encode(client.clientId)}:${encode(client.clientSecret!)}`).toString('base64')}`
  } else {
    form.set('client_id', client.clientId)
    if (method === 'client_secret_post') form.set('client_secret', client.clientSecret!)
  }
  const url = new URL(server.tokenEndpoint)
  const answer = await fetchFn(url, { method: 'POST', headers, body: form.toString() })
  if (!answer.ok) throw await parseErrorResponse((await answer.text()).slice(0, MAX_ERROR_BODY_CHARS))
  return readTokens(await jsonOf(answer, url), url, refreshToken)
}

/** The token response (RFC 6749 §5.1), checked field by field; pure. */
export function readTokens(body: unknown, url: URL, refreshToken?: string, now = Date.now()): Tokens {
  const doc = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  if (typeof doc.access_token !== 'string' || doc.access_token === '') throw new MetadataError(`the token response of ${url.href} has no access_token`)
  if (typeof doc.token_type !== 'string' || doc.token_type.toLowerCase() !== 'bearer') throw new MetadataError(`the token response of ${url.href} is not a Bearer token`)
  const refresh = typeof doc.refresh_token === 'string' && doc.refresh_token !== '' ? doc.refresh_token : refreshToken
  const expiresIn = typeof doc.expires_in === 'number' && doc.expires_in > 0 ? doc.expires_in : undefined
  return {
    accessToken: doc.access_token,
    ...(refresh ? { refreshToken: refresh } : {}),
    ...(expiresIn !== undefined ? { expiresAt: now + expiresIn * 1000 } : {}),
    ...(typeof doc.scope === 'string' && doc.scope ? { scope: doc.scope } : {}),
  }
}

/**
 * Dynamic client registration (RFC 7591 §3) as a native public client: "MCP clients MUST specify
 * an appropriate `application_type` during Dynamic Client Registration" and CLI tools "SHOULD use
 * `application_type: "native"`" (MCP 2026-07-28 §client-registration).
 */
export async function registerClient(fetchFn: typeof fetch, endpoint: string, redirectUri: string, clientName: string): Promise<ClientIdentity> {
  const url = new URL(endpoint)
  const body = {
    client_name: clientName,
    application_type: 'native',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
  const answer = await fetchFn(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })
  if (!answer.ok) throw await parseErrorResponse((await answer.text()).slice(0, MAX_ERROR_BODY_CHARS))
  const doc = (await jsonOf(answer, url)) as Record<string, unknown> | null
  if (typeof doc?.client_id !== 'string' || doc.client_id === '') throw new MetadataError(`the registration response of ${url.href} has no client_id`)
  return { clientId: doc.client_id, ...(typeof doc.client_secret === 'string' && doc.client_secret ? { clientSecret: doc.client_secret } : {}) }
}
