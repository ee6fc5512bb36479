import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import type { ServerMetadata } from './metadata.ts'
import { quote } from './metadata.ts'

/**
 * The front-channel half of the authorization-code grant (pure): the URL the person's browser is
 * sent to, and the reading of what comes back to the redirect URI.
 */

export interface AuthorizationRequest {
  server: ServerMetadata
  clientId: string
  redirectUri: string
  codeChallenge: string
  state: string
  resource: string
  scope?: string
}

/**
 * RFC 6749 §4.1.1 with PKCE (RFC 7636 §4.3) and the resource indicator: "MUST be included in both
 * authorization requests and token requests" (MCP 2025-11-25 §basic/authorization "Resource
 * Parameter Implementation"). Parameters the endpoint URL already carries are kept.
 */
export function authorizationUrl(request: AuthorizationRequest): URL {
  const url = new URL(request.server.authorizationEndpoint)
  const params = url.searchParams
  params.set('response_type', 'code')
  params.set('client_id', request.clientId)
  params.set('redirect_uri', request.redirectUri)
  params.set('code_challenge', request.codeChallenge)
  params.set('code_challenge_method', 'S256')
  params.set('state', request.state)
  params.set('resource', request.resource)
  if (request.scope) params.set('scope', request.scope)
  return url
}

/** The sign-in failed: an authorization failure like a refused token, not an outage to retry. */
export class AuthorizationResponseError extends UnauthorizedError {
  override name = 'AuthorizationResponseError'
}

/**
 * The authorization code from the redirect, once the response is the one this request awaits.
 *
 * `iss` first (RFC 9207 §2.4, as MCP 2026-07-28 §basic/authorization "Authorization Response
 * Validation" tabulates it): compared by simple string comparison whenever present, required when
 * the server advertises `authorization_response_iss_parameter_supported`; on a mismatch "the
 * client MUST NOT act on or display `error`, `error_description`, or `error_uri`", so nothing of
 * the response is quoted. Then `state`: "discard any results that do not include or have a
 * mismatch with the original state" (MCP 2025-11-25 §basic/authorization). Then an error the
 * server sent, and last the code. The code itself never appears in an error.
 */
export function readAuthorizationResponse(callback: URL, expected: { state: string; issuer: string; issRequired: boolean }): string {
  const params = callback.searchParams
  const iss = params.get('iss')
  if (iss === null && expected.issRequired) {
    throw new AuthorizationResponseError(`the authorization response carries no iss, which ${expected.issuer} advertises it always sends (RFC 9207): rejected`)
  }
  if (iss !== null && iss !== expected.issuer) {
    throw new AuthorizationResponseError(`the authorization response comes from issuer ${quote(iss)}, not ${quote(expected.issuer)} (RFC 9207 mix-up defence): rejected`)
  }
  if (params.get('state') !== expected.state) throw new AuthorizationResponseError('the authorization response does not carry the state of this request: rejected')
  const error = params.get('error')
  if (error !== null) {
    const description = params.get('error_description')
    throw new AuthorizationResponseError(`the authorization server refused the sign-in: ${quote(error)}${description ? ` (${quote(description)})` : ''}`)
  }
  const code = params.get('code')
  if (!code) throw new AuthorizationResponseError('the authorization response carries no code')
  return code
}
