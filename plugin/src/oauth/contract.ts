/** The host services the sign-in flow consumes (host-contract.ts re-exports them as part of the plugin's API). */

/**
 * Optional: how the host keeps OAuth credentials and lets a person sign in, for servers configured
 * with the auth type `authorization_code` (plugin/README.md "Signing in"). Looked up with `ctx.get`
 * when a connection needs it. Without it, credentials live as long as the connection and a sign-in
 * is refused with one line naming the server.
 */
export interface McpAuthService {
  /** Where tokens and client registrations outlive the process; the reference host's writes a 0600 file per issuer. */
  credentials?: CredentialStore
  /**
   * Hands a person the authorization URL of `serverName` (print it, open a browser). The bridge
   * listens for the redirect itself (127.0.0.1, an ephemeral port) and waits until `signal`
   * aborts; the hook need not wait for the person. Absent: a headless host, which refuses.
   */
  signIn?(request: SignInRequest): Promise<void> | void
}

export interface SignInRequest {
  serverName: string
  /** The authorization URL: carries the PKCE challenge and `state`, never a secret. */
  url: string
  /** Aborted when the bridge stops waiting for the redirect. */
  signal: AbortSignal
}

/** What the bridge holds for one authorization server, keyed by its issuer: never presented to another. */
export interface StoredCredentials {
  issuer: string
  /** The registration made with this issuer (dynamic client registration). */
  client?: { clientId: string; clientSecret?: string }
  /** Tokens by resource (the MCP server's URI, RFC 8707), each with the client they were issued to. */
  tokens: Record<string, StoredTokens>
}

export interface StoredTokens {
  clientId: string
  accessToken: string
  refreshToken?: string
  /** Milliseconds since the epoch. */
  expiresAt?: number
  scope?: string
}

/** A store of credentials per issuer. Its contents are secrets: never logged, never shown. */
export interface CredentialStore {
  load(issuer: string): Promise<StoredCredentials | undefined>
  save(credentials: StoredCredentials): Promise<void>
  delete(issuer: string): Promise<void>
  /** Every issuer with stored credentials (for a logout that knows the server, not its issuer). */
  issuers(): Promise<string[]>
}
