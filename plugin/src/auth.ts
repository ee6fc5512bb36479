import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { Grant } from './auth-renewal.ts'
import { secretVariable, type AuthConfig } from './auth-config.ts'
import { fetchUnder } from './oauth/bounded-fetch.ts'
import { AuthorizationCodeFlow, type CodeFlowConfig } from './oauth/flow.ts'
import { hostAuthOf } from './oauth/host-auth.ts'

export interface AuthSetup {
  /** For the OAuth grants: the grant auth-renewal.ts renews their tokens with, over a fetch bounded in bytes. */
  grant?(serverUrl: URL, fetchFn: typeof fetch): Grant
  /** The access token the provider holds now (the last one saved), for the grants. */
  accessToken(): string | undefined
  /** For a given token: sent as it is; a 401 then stops the connection, as nothing can renew it. */
  headers: Record<string, string>
}

/**
 * The transport's share of `auth`. `learnSecret` receives every credential the bridge comes to
 * hold (the configured secret, each access and refresh token), so that redaction covers them
 * before any of them can reach a log, an error or a report.
 */
export function authSetup(auth: AuthConfig | undefined, env: NodeJS.ProcessEnv, learnSecret: (value: string) => void, instance?: { config: object; serverName: string }): AuthSetup {
  if (!auth) return { headers: {}, accessToken: () => undefined }
  const variable = secretVariable(auth)
  const secret = variable ? (env[variable.name] ?? '') : ''
  learnSecret(secret)
  if (auth.type === 'authorization_code') {
    let flow: AuthorizationCodeFlow | undefined
    return {
      headers: {},
      accessToken: () => flow?.current(),
      grant: (serverUrl, fetchFn) => {
        const host = hostAuthOf(instance?.config ?? auth)
        flow = new AuthorizationCodeFlow({ serverName: instance?.serverName ?? 'mcp', serverUrl, config: codeFlowConfig(auth, secret), ...host, learnSecret })
        return flow.grantWith(fetchFn)
      },
    }
  }
  if (auth.type === 'bearer') return { headers: { authorization: `Bearer ${secret}` }, accessToken: () => undefined }
  const common = { clientId: auth.clientId, expectedIssuer: auth.issuer, clientName: 'mcp-bridge', ...(auth.scope ? { scope: auth.scope } : {}) }
  const provider =
    auth.type === 'client_credentials'
      ? new ClientCredentialsProvider({ ...common, clientSecret: secret })
      : new PrivateKeyJwtProvider({ ...common, privateKey: secret, algorithm: auth.algorithm })
  let accessToken: string | undefined
  const learning = learningTokens(provider, (tokens) => {
    learnSecret(tokens.access_token)
    if (tokens.refresh_token) learnSecret(tokens.refresh_token)
    accessToken = tokens.access_token
  })
  return { grant: (serverUrl, fetchFn) => grantWith(learning, serverUrl, fetchFn), headers: {}, accessToken: () => accessToken }
}

/** The flow's settings from `auth` and the secret its variable holds (empty: none). */
export function codeFlowConfig(auth: Extract<AuthConfig, { type: 'authorization_code' }>, secret: string): CodeFlowConfig {
  const { clientId, clientMetadataUrl, issuer, scope } = auth
  return { ...(clientId ? { clientId } : {}), ...(secret ? { clientSecret: secret } : {}), ...(clientMetadataUrl ? { clientMetadataUrl } : {}), ...(issuer ? { issuer } : {}), ...(scope ? { scope } : {}) }
}

/** The provider, with every token it is given seen by `saw` before the SDK can use (or print) it. */
function learningTokens(provider: OAuthClientProvider, saw: (tokens: OAuthTokens) => void): OAuthClientProvider {
  const save = provider.saveTokens.bind(provider)
  provider.saveTokens = (tokens: OAuthTokens) => {
    saw(tokens)
    return save(tokens)
  }
  return provider
}

/**
 * One run of the SDK's OAuth flow for `provider` (discovery per RFC 9728 and RFC 8414, then the
 * client-credentials token request), every request of it through `fetchFn` under `signal`: the
 * SDK's flow takes no signal of its own, and an authorization server that never answers would
 * otherwise hold its sockets for undici's 300 s header timeout.
 */
function grantWith(provider: OAuthClientProvider, serverUrl: URL, fetchFn: typeof fetch): Grant {
  return async (challenge, signal) => {
    const result = await auth(provider, { serverUrl, ...challenge, fetchFn: fetchUnder(fetchFn, signal) })
    // A headless provider has no redirect URL, so the SDK never asks for one; said plainly if it ever does.
    if (result !== 'AUTHORIZED') throw new UnauthorizedError('the authorization server asked for a browser sign-in, which a headless bridge cannot give')
  }
}
