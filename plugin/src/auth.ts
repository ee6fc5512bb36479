import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'

/**
 * OAuth for a headless host: the grants that need no browser (client credentials, with a secret
 * or a private-key JWT) and a token handed over by the operator. Secrets are never written in the
 * configuration: it names the environment variables that hold them, read when a connection starts.
 */
export type AuthConfig =
  | { type: 'client_credentials'; clientId: string; clientSecretEnv: string; issuer: string; scope?: string }
  | { type: 'private_key_jwt'; clientId: string; privateKeyEnv: string; algorithm: string; issuer: string; scope?: string }
  | { type: 'bearer'; tokenEnv: string }

export const AUTH_TYPES = ['client_credentials', 'private_key_jwt', 'bearer'] as const

/** The environment variable each type reads its secret from, by config field. */
export function secretVariable(auth: AuthConfig): { field: string; name: string } {
  switch (auth.type) {
    case 'client_credentials':
      return { field: 'clientSecretEnv', name: auth.clientSecretEnv }
    case 'private_key_jwt':
      return { field: 'privateKeyEnv', name: auth.privateKeyEnv }
    case 'bearer':
      return { field: 'tokenEnv', name: auth.tokenEnv }
  }
}

/** The configured secret's value, for redaction from the start (tokens are learned as they come). */
export function authSecrets(config: object, env: NodeJS.ProcessEnv): string[] {
  const auth = (config as { auth?: AuthConfig }).auth
  const value = auth ? env[secretVariable(auth).name] : undefined
  return value ? [value] : []
}

export interface AuthSetup {
  /** For the OAuth grants: the SDK runs discovery, the token request and the one retry after a 401. */
  provider?: OAuthClientProvider
  /** For a given token: sent as it is; a 401 then stops the connection, as nothing can renew it. */
  headers: Record<string, string>
}

/**
 * The transport's share of `auth`. `learnSecret` receives every credential the bridge comes to
 * hold (the configured secret, each access and refresh token), so that redaction covers them
 * before any of them can reach a log, an error or a report.
 */
export function authSetup(auth: AuthConfig | undefined, env: NodeJS.ProcessEnv, learnSecret: (value: string) => void): AuthSetup {
  if (!auth) return { headers: {} }
  const secret = env[secretVariable(auth).name] ?? ''
  learnSecret(secret)
  if (auth.type === 'bearer') return { headers: { authorization: `Bearer ${secret}` } }
  const common = { clientId: auth.clientId, expectedIssuer: auth.issuer, clientName: 'mcp-bridge', ...(auth.scope ? { scope: auth.scope } : {}) }
  const provider =
    auth.type === 'client_credentials'
      ? new ClientCredentialsProvider({ ...common, clientSecret: secret })
      : new PrivateKeyJwtProvider({ ...common, privateKey: secret, algorithm: auth.algorithm })
  return { provider: learningTokens(provider, learnSecret), headers: {} }
}

/** The provider, with every token it is given reported before the SDK can use (or print) it. */
function learningTokens(provider: OAuthClientProvider, learnSecret: (value: string) => void): OAuthClientProvider {
  const save = provider.saveTokens.bind(provider)
  provider.saveTokens = (tokens: OAuthTokens) => {
    learnSecret(tokens.access_token)
    if (tokens.refresh_token) learnSecret(tokens.refresh_token)
    return save(tokens)
  }
  return provider
}
