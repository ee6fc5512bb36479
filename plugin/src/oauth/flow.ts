import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type { Challenge, Grant } from '../auth-renewal.ts'
import type { CredentialStore, SignInRequest, StoredCredentials, StoredTokens } from './contract.ts'
import { authorizationUrl, readAuthorizationResponse } from './authorization-request.ts'
import { fetchUnder } from './bounded-fetch.ts'
import { chooseClient, type ClientIdentity } from './client-identity.ts'
import { discover, type Discovery } from './discover.ts'
import { listenForRedirect } from './loopback.ts'
import { quote } from './metadata.ts'
import { createPkce, newState } from './pkce.ts'
import { scopeCovers, selectScope, withOfflineAccess } from './scope.ts'
import { exchangeCode, refreshTokens, registerClient, type Tokens } from './token-endpoint.ts'

/** `auth` of type authorization_code, with its secret read from the environment. */
export interface CodeFlowConfig {
  clientId?: string
  clientSecret?: string
  clientMetadataUrl?: string
  scope?: string
  /** When set, the only authorization server the bridge signs in to. */
  issuer?: string
}

export interface CodeFlowOptions {
  serverName: string
  serverUrl: URL
  config: CodeFlowConfig
  store: CredentialStore
  signIn?: (request: SignInRequest) => Promise<void> | void
  /** Taught every secret as it is learned (code, verifier, tokens, client secret), before it can reach a log. */
  learnSecret(value: string): void
}

/**
 * Sign-ins a scope challenge may cause for the same scope before it counts as a permanent refusal:
 * "Retry the original request with the new authorization no more than a few times" (MCP
 * 2025-11-25 §basic/authorization "Step-Up Authorization Flow"); clients "SHOULD implement retry limits".
 */
export const MAX_STEP_UPS = 2

/**
 * The OAuth authorization-code grant with PKCE of MCP 2025-11-25 and 2026-07-28
 * §basic/authorization, for one MCP server: discovery, then the cheapest way to a token that
 * covers the scope asked for (a stored refresh token, else a person's sign-in through the host's
 * hook), the tokens kept in the host's credential store under the issuer that issued them.
 *
 * Runs as auth-renewal.ts's Grant (single-flight, bounded by connectTimeoutMs) and as the
 * operator's `login` (its own bound, the signal it is given).
 */
export class AuthorizationCodeFlow {
  private tokens?: StoredTokens
  /** The issuer the current tokens come from: another issuer's are never presented. */
  private issuer?: string
  private readonly stepUps = new Map<string, number>()

  constructor(private readonly options: CodeFlowOptions) {
    if (options.config.clientSecret) options.learnSecret(options.config.clientSecret)
  }

  /** The access token held now. */
  current(): string | undefined {
    return this.tokens?.accessToken
  }

  /** The Grant for auth-renewal.ts: `fetchFn` is already bounded in time and bytes. */
  grantWith(fetchFn: typeof fetch): Grant {
    return (challenge, signal) => this.obtain(fetchFn, challenge, signal, false)
  }

  /** A person's sign-in, whatever is stored (`mcp-bridge login`). */
  login(fetchFn: typeof fetch, challenge: Challenge, signal: AbortSignal): Promise<void> {
    return this.obtain(fetchFn, challenge, signal, true)
  }

  private async obtain(unbounded: typeof fetch, challenge: Challenge, signal: AbortSignal, interactive: boolean): Promise<void> {
    const { config, serverUrl, store } = this.options
    const fetchFn = fetchUnder(unbounded, signal)
    const found = await discover(fetchFn, serverUrl, challenge.resourceMetadataUrl)
    const issuer = found.server.issuer
    if (config.issuer && issuer !== config.issuer) {
      throw new UnauthorizedError(`the server names authorization server ${quote(issuer)}, not the configured auth.issuer ${quote(config.issuer)}: refusing to sign in there`)
    }
    if (this.issuer !== issuer) this.tokens = undefined
    this.issuer = issuer
    const record: StoredCredentials = (await store.load(issuer)) ?? { issuer, tokens: {} }
    const stored = record.tokens[found.resource]
    const scope = selectScope(config.scope, challenge.scope, found.resourceMetadata.scopesSupported)
    // A step-up needs a sign-in: a refresh never widens the scope (RFC 6749 §6).
    if (challenge.insufficientScope) this.countStepUp(challenge.scope ?? '')
    else if (!interactive && stored) {
      const fresh = await this.fromStore(fetchFn, found, record, stored, challenge.scope)
      if (fresh) return this.keep(record, found.resource, fresh)
    }
    const tokens = await this.signIn(fetchFn, found, record, withOfflineAccess(scope, found.server.scopesSupported), signal)
    await this.keep(record, found.resource, tokens)
  }

  /**
   * Tokens from the store that can serve `wanted` without a person: an unexpired access token not
   * tried yet (and without a refresh token, which is the surer way), or a refreshed one. A refresh
   * the server refuses (the grant expired or was revoked) leaves the sign-in to do.
   */
  private async fromStore(fetchFn: typeof fetch, found: Discovery, record: StoredCredentials, stored: StoredTokens, wanted: string | undefined): Promise<StoredTokens | undefined> {
    if (!scopeCovers(stored.scope, wanted)) return undefined
    if (!stored.refreshToken) {
      const unexpired = stored.expiresAt === undefined || stored.expiresAt > Date.now()
      return unexpired && stored.accessToken !== this.tokens?.accessToken ? stored : undefined
    }
    const client = this.clientFor(stored.clientId, record)
    this.options.learnSecret(stored.refreshToken)
    try {
      return { clientId: client.clientId, ...(await refreshTokens(fetchFn, found.server, client, stored.refreshToken, found.resource)) }
    } catch (error) {
      if (error instanceof OAuthError && error.errorCode === 'invalid_grant') return undefined
      throw error
    }
  }

  /** The client identity that `clientId` names at this issuer (its secret, when it has one). */
  private clientFor(clientId: string, record: StoredCredentials): ClientIdentity {
    const { config } = this.options
    if (config.clientId === clientId) return { clientId, ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}) }
    if (record.client?.clientId === clientId) return record.client
    return { clientId }
  }

  private countStepUp(scope: string): void {
    const count = (this.stepUps.get(scope) ?? 0) + 1
    if (count > MAX_STEP_UPS) {
      throw new UnauthorizedError(`the server asked for more scope (${quote(scope)}) again after ${MAX_STEP_UPS} sign-ins for it: treating this as a permanent refusal`)
    }
    this.stepUps.set(scope, count)
  }

  private async signIn(fetchFn: typeof fetch, found: Discovery, record: StoredCredentials, scope: string | undefined, signal: AbortSignal): Promise<Tokens & { clientId: string }> {
    const { serverName, signIn, config, learnSecret } = this.options
    if (!signIn) {
      throw new UnauthorizedError(
        `server "${serverName}" needs a person to sign in at ${found.server.issuer} and this host has no sign-in hook: run \`mcp-bridge login ${serverName}\` first`,
      )
    }
    const redirect = await listenForRedirect(signal)
    try {
      const configured = config.clientId ? { clientId: config.clientId, ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}) } : undefined
      const choice = chooseClient(found.server, { configured, metadataUrl: config.clientMetadataUrl, registered: record.client })
      if (choice.kind === 'none') throw new UnauthorizedError(choice.reason)
      let client: ClientIdentity
      if (choice.kind === 'register') {
        client = await registerClient(fetchFn, choice.endpoint, redirect.redirectUri, 'mcp-bridge')
        if (client.clientSecret) learnSecret(client.clientSecret)
        record.client = client
        await this.options.store.save(record)
      } else client = choice.client
      const pkce = createPkce()
      const state = newState()
      learnSecret(pkce.verifier)
      const url = authorizationUrl({
        server: found.server,
        clientId: client.clientId,
        redirectUri: redirect.redirectUri,
        codeChallenge: pkce.challenge,
        state,
        resource: found.resource,
        ...(scope ? { scope } : {}),
      })
      await signIn({ serverName, url: url.href, signal })
      const response = await redirect.callback
      // Learned before anything can quote the response: the code is a credential until exchanged.
      const sentCode = response.searchParams.get('code')
      if (sentCode) learnSecret(sentCode)
      const code = readAuthorizationResponse(response, { state, issuer: found.server.issuer, issRequired: found.server.issParameterSupported })
      const tokens = await exchangeCode(fetchFn, found.server, client, { code, verifier: pkce.verifier, redirectUri: redirect.redirectUri, resource: found.resource })
      return { clientId: client.clientId, ...tokens }
    } finally {
      await redirect.close()
    }
  }

  private async keep(record: StoredCredentials, resource: string, tokens: StoredTokens): Promise<void> {
    this.options.learnSecret(tokens.accessToken)
    if (tokens.refreshToken) this.options.learnSecret(tokens.refreshToken)
    record.tokens[resource] = tokens
    await this.options.store.save(record)
    this.tokens = tokens
  }
}
