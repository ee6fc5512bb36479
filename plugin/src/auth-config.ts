// Pure: the configuration's share of auth, apart from the OAuth code (auth.ts) so that a
// configuration is read, checked and redacted without loading the SDK's OAuth client.

/**
 * OAuth: the grants that need no browser (client credentials, with a secret or a private-key
 * JWT), a token handed over by the operator, and the authorization-code grant, for which a person
 * signs in through the host (oauth/flow.ts). Secrets are never written in the configuration: it
 * names the environment variables that hold them, read when a connection starts.
 */
export type AuthConfig =
  | { type: 'client_credentials'; clientId: string; clientSecretEnv: string; issuer: string; scope?: string }
  | { type: 'private_key_jwt'; clientId: string; privateKeyEnv: string; algorithm: string; issuer: string; scope?: string }
  | { type: 'bearer'; tokenEnv: string }
  | { type: 'authorization_code'; clientId?: string; clientSecretEnv?: string; clientMetadataUrl?: string; issuer?: string; scope?: string }

export const AUTH_TYPES = ['client_credentials', 'private_key_jwt', 'bearer', 'authorization_code'] as const

/** The environment variable each type reads its secret from, by config field; undefined when it has none. */
export function secretVariable(auth: AuthConfig): { field: string; name: string } | undefined {
  switch (auth.type) {
    case 'authorization_code':
      return auth.clientSecretEnv ? { field: 'clientSecretEnv', name: auth.clientSecretEnv } : undefined
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
  const variable = auth ? secretVariable(auth) : undefined
  const value = variable ? env[variable.name] : undefined
  return value ? [value] : []
}
