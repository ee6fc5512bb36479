import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js'
import { freshTokenRefused, type Challenge, type TokenRenewal } from './auth-renewal.ts'

export interface AuthorizingFetch {
  fetch: typeof fetch
  /** The last refusal handed to an event stream as a bare 401: the legacy SSE client reports only the status. */
  refusal(): unknown
}

/**
 * The fetch of the MCP server's own requests under OAuth: each carries the connection's current
 * token, and a 401 (or a 403 `insufficient_scope`, MCP 2025-11-25 §basic/authorization Step-Up
 * Authorization Flow) gets one more try with a renewed token (auth-renewal.ts, single-flight).
 * The SDK's transports are given no auth provider: their own re-authorisation runs per request,
 * so concurrent requests each started a grant and tripped each other's circuit breakers.
 *
 * When no token can be had, a request fails with the reason: the authorization server's refusal,
 * or `freshTokenRefused`. An event stream's GET gets the 401 instead, since an EventSource only
 * stops on a status (it retries any fetch that throws); `refusal()` then tells why.
 */
export function authorizingFetch(base: typeof fetch, renewal: TokenRenewal): AuthorizingFetch {
  let refusal: unknown
  const refused = (init: RequestInit | undefined, answer: Response, error: unknown): Response => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') throw error
    refusal = error
    return new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers })
  }
  const answered = (answer: Response, token: string | undefined): Response => {
    if (answer.ok && token !== undefined) {
      renewal.accept(token)
      refusal = undefined
    }
    return answer
  }
  const authorized: typeof fetch = async (input, init) => {
    // A request that starts while a renewal is in flight would only carry the token being replaced.
    await renewal.settled(init?.signal)
    const sent = renewal.current
    const first = await base(input, withBearer(init, sent))
    const challenge = challengeOf(first)
    if (!challenge || !replayable(init)) return answered(first, sent)
    await first.body?.cancel().catch(() => {})
    let token: string
    try {
      token = await renewal.renew(sent, challenge, first.status, init?.signal)
    } catch (error) {
      if (init?.signal?.aborted) throw error
      return refused(init, first, error)
    }
    const second = await base(input, withBearer(init, token))
    if (!challengeOf(second)) return answered(second, token)
    await second.body?.cancel().catch(() => {})
    return refused(init, second, freshTokenRefused(second.status))
  }
  return { fetch: authorized, refusal: () => refusal }
}

/** What a refusal that a new token may cure says: a 401, or a 403 asking for more scope; undefined for any other answer. */
function challengeOf(answer: Response): Challenge | undefined {
  if (answer.status !== 401 && answer.status !== 403) return undefined
  const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(answer)
  if (answer.status === 403 && error !== 'insufficient_scope') return undefined
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}), ...(answer.status === 403 ? { insufficientScope: true as const } : {}) }
}

/** The SDK's requests carry a JSON string or nothing: both can be sent again as they are. */
function replayable(init: RequestInit | undefined): boolean {
  return init?.body === undefined || init.body === null || typeof init.body === 'string'
}

function withBearer(init: RequestInit | undefined, token: string | undefined): RequestInit | undefined {
  if (token === undefined) return init
  const headers = new Headers(init?.headers)
  headers.set('authorization', `Bearer ${token}`)
  return { ...init, headers }
}
