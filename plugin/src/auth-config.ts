// Pure: the configuration's share of auth, apart from the OAuth code (auth.ts) so that a
// configuration is read, checked and redacted without loading the SDK's OAuth client (issue 40).

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
