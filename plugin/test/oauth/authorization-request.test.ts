import { describe, expect, it } from 'vitest'
import { readAuthorizationResponse } from '../../src/oauth/authorization-request.ts'
import { selectScope, withOfflineAccess } from '../../src/oauth/scope.ts'

const issuer = 'https://auth.example'
const back = (query: string) => new URL(`http://127.0.0.1:5/callback?${query}`)

describe('reading the authorization response (RFC 9207 table of MCP 2026-07-28)', () => {
  it('compares a present iss by simple string comparison, advertised or not', () => {
    expect(readAuthorizationResponse(back('code=c&state=s&iss=https%3A%2F%2Fauth.example'), { state: 's', issuer, issRequired: false })).toBe('c')
    expect(() => readAuthorizationResponse(back('code=c&state=s&iss=https%3A%2F%2FAUTH.example'), { state: 's', issuer, issRequired: false })).toThrow(/RFC 9207/)
    expect(() => readAuthorizationResponse(back('code=c&state=s&iss=https%3A%2F%2Fauth.example%2F'), { state: 's', issuer, issRequired: true })).toThrow(/RFC 9207/)
  })

  it('rejects a missing iss only where the server advertises it', () => {
    expect(readAuthorizationResponse(back('code=c&state=s'), { state: 's', issuer, issRequired: false })).toBe('c')
    expect(() => readAuthorizationResponse(back('code=c&state=s'), { state: 's', issuer, issRequired: true })).toThrow(/carries no iss/)
  })

  it('neither acts on nor shows an error from another issuer', () => {
    const error = () => readAuthorizationResponse(back('error=evil_text&error_description=click%20here&state=s&iss=https%3A%2F%2Fx.example'), { state: 's', issuer, issRequired: true })
    expect(error).toThrow(/not "https:\/\/auth.example"/)
    expect(error).not.toThrow(/evil_text|click here/)
  })

  it('never quotes the code in an error', () => {
    expect(() => readAuthorizationResponse(back('code=secret-code&state=other'), { state: 's', issuer, issRequired: false })).toThrow(/^(?!.*secret-code)/)
  })
})

describe('scope selection', () => {
  it('prefers the configured scope, then the challenge, then scopes_supported, else none', () => {
    expect(selectScope('mine', 'challenged', ['a'])).toBe('mine')
    expect(selectScope(undefined, 'challenged', ['a'])).toBe('challenged')
    expect(selectScope(undefined, undefined, ['a', 'b'])).toBe('a b')
    expect(selectScope(undefined, undefined, undefined)).toBeUndefined()
  })

  it('adds offline_access only when the authorization server lists it', () => {
    expect(withOfflineAccess('tools', ['tools', 'offline_access'])).toBe('tools offline_access')
    expect(withOfflineAccess(undefined, ['offline_access'])).toBe('offline_access')
    expect(withOfflineAccess('tools offline_access', ['offline_access'])).toBe('tools offline_access')
    expect(withOfflineAccess('tools', ['tools'])).toBe('tools')
    expect(withOfflineAccess('tools', undefined)).toBe('tools')
  })
})
