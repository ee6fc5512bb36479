/**
 * When the authorization checks judge at all (pure, evaluate/auth.ts): a server that serves a
 * request without credentials requires none, whatever challenge it adds; and an address the
 * kit's network cannot reach is a reason not to judge, never the server's breach.
 */
import { describe, expect, it } from 'vitest'
import type { AuthObservation, HttpAnswer } from '../src/server/evaluate/auth.ts'
import { asksForAuthorization, judgeAuth, judgeModernAuth } from '../src/server/evaluate/auth.ts'

const URL_ = 'http://127.0.0.1:1/mcp'
const CHALLENGE = 'Bearer resource_metadata="https://unreachable.example/.well-known/oauth-protected-resource"'
const answer = (status: number | undefined, extra: Partial<HttpAnswer> = {}): HttpAnswer => ({ method: 'POST', url: URL_, ...(status === undefined ? { error: 'fetch failed' } : { status }), ...extra })

function observation(anonymous: HttpAnswer, more: Partial<AuthObservation> = {}): AuthObservation {
  return { anonymous, wellKnown: [], serverMetadata: [], fallback: [], ...more }
}

describe('the authorization checks', () => {
  it('do not apply to a server that serves the request without credentials, challenge or not', () => {
    const optional = observation(answer(200, { challenge: CHALLENGE }))
    expect(asksForAuthorization(optional)).toBe(false)
    for (const check of [...judgeAuth(optional, '2025-11-25'), ...judgeModernAuth(optional)]) expect(check.status, check.id).toBe('skip')
  })

  it('apply to a 401, and to another refusal that asks for a bearer token', () => {
    expect(asksForAuthorization(observation(answer(401)))).toBe(true)
    expect(asksForAuthorization(observation(answer(403, { challenge: CHALLENGE })))).toBe(true)
    expect(asksForAuthorization(observation(answer(403)))).toBe(false)
  })

  it('leave a metadata address that gave no HTTP answer untested, and fail one that answered 404', () => {
    const lost = answer(undefined, { method: 'GET', url: 'https://unreachable.example/.well-known/oauth-protected-resource' })
    const refused = observation(answer(401, { challenge: CHALLENGE }), { named: lost, invalidToken: answer(401, { challenge: 'Bearer error="invalid_token"' }) })
    const byId = (checks: ReturnType<typeof judgeAuth>) => Object.fromEntries(checks.map((c) => [c.id, c.status]))
    expect(byId(judgeAuth(refused, '2025-11-25'))['auth/protected-resource-metadata']).toBe('skip')
    expect(byId(judgeModernAuth(refused))['modern/auth-protected-resource-metadata']).toBe('skip')
    const missing = observation(answer(401, { challenge: CHALLENGE }), { named: { ...lost, status: 404, error: undefined } })
    expect(byId(judgeAuth(missing, '2025-11-25'))['auth/protected-resource-metadata']).toBe('fail')
  })
})
