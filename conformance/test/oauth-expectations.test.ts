import { describe, expect, it } from 'vitest'
import type { HttpEntry } from '@mcp-bridge/fixtures-server'
import { checkExpectations, type EndState } from '../src/client/expectations.ts'
import { ScenarioSchema } from '../src/client/scenario.ts'
import { resolveTargetRefs } from '../src/client/target-refs.ts'

const scenario = (expect: Record<string, unknown>) =>
  ScenarioSchema.parse({ id: 'x', title: 'x', spec: [{ ref: 'MCP §basic/authorization' }], transports: ['http'], server: {}, expect })

const end = (http: Array<HttpEntry['http']> | undefined): EndState => ({ tools: [], logs: [], state: 'connected', wire: [], attachments: 0, http })

const token = (grant: string, outcome: string): HttpEntry['http'] => ({ method: 'POST', path: '/token', status: outcome === 'issued' ? 200 : 400, token: { grant, clientAuth: 'client_secret_basic', outcome } })
const endpoint = (bearer: NonNullable<HttpEntry['http']['bearer']>): HttpEntry['http'] => ({ method: 'POST', path: '/mcp', status: bearer === 'valid' ? 200 : 401, bearer })

const statuses = (checks: ReturnType<typeof checkExpectations>) => Object.fromEntries(checks.map((check) => [check.id, `${check.status}: ${check.message}`]))

describe('OAuth expectations (tokenRequests, bearer)', () => {
  const log = [endpoint('none'), token('client_credentials', 'issued'), endpoint('valid'), endpoint('expired'), token('refresh_token', 'invalid_grant'), token('client_credentials', 'issued'), endpoint('valid')]

  it('count token requests by grant, by grant/outcome and in all, and endpoint requests by credential kind', () => {
    const checks = checkExpectations(
      scenario({
        tokenRequests: { all: { max: 3 }, client_credentials: { min: 2, max: 2 }, 'client_credentials/issued': { min: 2 }, 'refresh_token/invalid_grant': { max: 0 } },
        bearer: { none: { max: 1 }, expired: { min: 1, max: 1 }, query: { max: 0 }, valid: { min: 3 } },
      }),
      end(log),
    )
    expect(statuses(checks)).toEqual({
      'expect/token-requests/all': 'pass: 3 token requests',
      'expect/token-requests/client_credentials': 'pass: 2 token requests',
      'expect/token-requests/client_credentials/issued': 'pass: 2 token requests',
      'expect/token-requests/refresh_token/invalid_grant': 'fail: 1 token requests, expected at most 0',
      'expect/bearer/none': 'pass: 1 requests',
      'expect/bearer/expired': 'pass: 1 requests',
      'expect/bearer/query': 'pass: 0 requests',
      'expect/bearer/valid': 'fail: 2 requests, expected at least 3',
    })
  })

  it('have nothing to judge over stdio, and refuse a malformed key when the scenario loads', () => {
    const checks = checkExpectations(scenario({ tokenRequests: { all: { max: 0 } }, bearer: { none: { max: 0 } } }), end(undefined))
    expect(checks.map((check) => `${check.id} ${check.status}`)).toEqual(['expect/token-requests/all skip', 'expect/bearer/none skip'])
    expect(() => scenario({ tokenRequests: { 'client credentials': { max: 1 } } })).toThrow(/all, <grant> or <grant>\/<outcome>/)
    expect(() => scenario({ bearer: { cookie: { max: 0 } } })).toThrow()
  })
})

describe("'{fixture.origin}' in a scenario's client config", () => {
  it('is the HTTP fixture of the run, wherever the value is nested; stdio configs are left alone', () => {
    const config = { auth: { type: 'client_credentials', issuer: '{fixture.origin}', scope: 'a b' }, headers: { 'x-upstream': '{fixture.url}?x=1' }, args: ['{fixture.origin}'] }
    expect(resolveTargetRefs(config, { transport: 'http', url: 'http://127.0.0.1:4711/mcp' })).toEqual({
      auth: { type: 'client_credentials', issuer: 'http://127.0.0.1:4711', scope: 'a b' },
      headers: { 'x-upstream': 'http://127.0.0.1:4711/mcp?x=1' },
      args: ['http://127.0.0.1:4711'],
    })
    expect(resolveTargetRefs(config, { transport: 'stdio', command: 'node', args: [], env: {} })).toBe(config)
  })
})
