import { isTimeoutReason, startDeadline, untilAborted } from '@mcp-bridge/process'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { OAuthError, ServerError, TemporarilyUnavailableError, TooManyRequestsError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { recognizeCredentialRefusals } from './request-failure.ts'

recognizeCredentialRefusals(OAuthError, UnauthorizedError)

/** What the server's 401 (or 403 insufficient_scope) challenge says about where and what to ask for. */
export interface Challenge {
  resourceMetadataUrl?: URL
  scope?: string
  /** A 403 `insufficient_scope`: the token works but lacks scope (a step-up), not an expired one. */
  insufficientScope?: true
}

/**
 * One run of the OAuth flow (metadata discovery, registration, the token request), every network
 * wait of it under `signal`; it saves the token it obtains where `TokenRenewal`'s `current` reads it.
 */
export type Grant = (challenge: Challenge, signal: AbortSignal) => Promise<void>

export interface RenewalOptions {
  /** The access token held now, if any. */
  current(): string | undefined
  grant: Grant
  /** connectTimeoutMs: one renewal, all its requests included, never waits longer. */
  timeoutMs: number
  /** Aborted when the connection closes: a renewal in flight ends with it. */
  lifetime: AbortSignal
}

/**
 * The server refused a token it had never accepted, issued for it moments before: another grant
 * would only get another such token. The refusal counts as the authorization failing.
 */
export function freshTokenRefused(status: number): UnauthorizedError {
  return new UnauthorizedError(
    `the server refused a freshly issued token (HTTP ${status} after successful authentication): check the client registration, its scopes and the issuer`,
  )
}

/**
 * The connection's credentials, renewed single-flight. Calls in flight when a token expires all
 * meet a 401 at once: the first starts the one renewal, the others wait for it and go on with its
 * token, and a failed renewal fails them all with its own reason (the authorization server's
 * refusal, or its silence past the deadline). A concurrent renewal is never mistaken for a refusal.
 *
 * What bounds the grants is the server's acceptance, not a count: a token is renewed only once it
 * was accepted (or when there is none yet), so a server that refuses every token costs one grant,
 * however many requests meet its 401s. And the authorization server is asked once per token: when
 * it refuses to replace one (invalid_client, invalid_grant, ...: an answer, not an outage), every
 * later request that carried that token fails with the same refusal rather than asking again.
 */
export class TokenRenewal {
  private inFlight?: Promise<void>
  /** The last token the server accepted (a 2xx to a request that carried it). */
  private accepted?: string
  /** The authorization server's refusal to replace `token` (undefined: to issue a first one). */
  private refused?: { token: string | undefined; error: unknown }

  constructor(private readonly options: RenewalOptions) {}

  get current(): string | undefined {
    return this.options.current()
  }

  /** A request that carried `token` was answered 2xx. */
  accept(token: string): void {
    this.accepted = token
  }

  /** Resolves once no renewal is in flight (whatever its outcome), or when `signal` aborts. */
  async settled(signal?: AbortSignal | null): Promise<void> {
    const renewal = this.inFlight
    if (!renewal) return
    await (signal ? untilAborted(renewal, signal, () => signal.reason) : renewal).catch(() => {})
  }

  /**
   * A token to use instead of `stale`, which the server refused: the one a concurrent renewal
   * already obtained, or the one a renewal started here (or joined) obtains. Rejects with the
   * renewal's failure, with `freshTokenRefused` when `stale` is the current token and was never
   * accepted, or with `signal`'s reason when the caller gives up first.
   */
  async renew(stale: string | undefined, challenge: Challenge, status: number, signal?: AbortSignal | null): Promise<string> {
    const current = this.current
    if (current !== undefined && current !== stale) return current
    if (!this.inFlight) {
      if (this.refused && this.refused.token === stale) throw this.refused.error
      if (stale !== undefined && this.accepted !== stale) throw freshTokenRefused(status)
      this.inFlight = this.run(challenge, stale).finally(() => (this.inFlight = undefined))
    }
    const renewal = this.inFlight
    await (signal ? untilAborted(renewal, signal, () => signal.reason) : renewal)
    const token = this.current
    if (token === undefined || token === stale) throw new UnauthorizedError('the authorization server issued no new access token')
    return token
  }

  private async run(challenge: Challenge, stale: string | undefined): Promise<void> {
    const { timeoutMs, lifetime } = this.options
    // One deadline for the whole flow (discovery, registration, token): its timer holds it until it fires or is cleared.
    const deadline = startDeadline(timeoutMs, [lifetime])
    try {
      await untilAborted(this.options.grant(challenge, deadline.signal), deadline.signal, () => renewalEnded(deadline.signal.reason, timeoutMs))
    } catch (error) {
      if (isRefusal(error)) this.refused = { token: stale, error }
      throw error
    } finally {
      deadline.clear()
    }
  }
}

/** Why a renewal was cut short: the authorization server's silence past the deadline, or the connection closing. */
function renewalEnded(reason: unknown, timeoutMs: number): Error {
  if (isTimeoutReason(reason)) {
    return new Error(`the authorization server did not complete the token request within connectTimeoutMs (${timeoutMs} ms)`)
  }
  return new Error('the connection closed while its token was being renewed', { cause: reason })
}

/** The authorization server answered no (RFC 6749 §5.2), as opposed to being down or busy: asking again gets the same answer. */
function isRefusal(error: unknown): boolean {
  return error instanceof OAuthError && !(error instanceof ServerError || error instanceof TemporarilyUnavailableError || error instanceof TooManyRequestsError)
}
