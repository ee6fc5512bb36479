import { describe, expect, it } from 'vitest'
import { scenarioNotApplicable } from '../src/client/applicability.ts'
import { driverAdapter, driverOptions } from '../src/client/driver/adapter.ts'
import { driverAuth } from '../src/client/driver/auth.ts'
import { parseDriverLine } from '../src/client/driver/protocol.ts'
import { loadScenarios } from '../src/client/load.ts'
import { runScenario } from '../src/client/run-scenario.ts'

const scenarios = new Map(loadScenarios().map((loaded) => [loaded.scenario.id, loaded]))
const SDK_DRIVER = `node ${new URL('../drivers/sdk-client.mjs', import.meta.url).pathname}`
// The same driver with its OAuth switched off, as a driver written before `auth` existed.
const NO_AUTH_DRIVER = `node ${new URL('./support/broken-sdk-driver.mjs', import.meta.url).pathname}`
const FAULTY_DRIVER = `node ${new URL('./support/auth-faulty-driver.mjs', import.meta.url).pathname}`

describe('a scenario\'s auth as the driver protocol passes it', () => {
  const env = { SECRET: 's3cret', KEY: '-----BEGIN PRIVATE KEY-----', TOKEN: 'given' }

  it('resolves each grant\'s secret from the environment the hostEnv planted, naming no method', () => {
    expect(driverAuth({ type: 'client_credentials', clientId: 'c', clientSecretEnv: 'SECRET', issuer: 'http://127.0.0.1:1' }, env)).toEqual({ grant: 'client_credentials', clientId: 'c', clientSecret: 's3cret', issuer: 'http://127.0.0.1:1' })
    expect(driverAuth({ type: 'private_key_jwt', clientId: 'c', privateKeyEnv: 'KEY' }, env)).toEqual({ grant: 'private_key_jwt', clientId: 'c', privateKey: '-----BEGIN PRIVATE KEY-----', algorithm: 'RS256' })
    expect(driverAuth({ type: 'bearer', tokenEnv: 'TOKEN' }, env)).toEqual({ grant: 'bearer', token: 'given' })
    expect(driverAuth({ type: 'authorization_code', scope: 'read' }, env)).toEqual({ grant: 'authorization_code', scope: 'read' })
    expect(driverAuth(undefined, env)).toBeUndefined()
    expect(driverOptions({ auth: { type: 'bearer', tokenEnv: 'TOKEN' } }, env)).toEqual({ auth: { grant: 'bearer', token: 'given' } })
  })

  it('says in one line which field is wrong and what to do', () => {
    expect(() => driverAuth({ type: 'bearer', tokenEnv: 'UNSET' }, env)).toThrow('client.auth.tokenEnv: names UNSET, which the scenario\'s hostEnv does not set; add it there')
    expect(() => driverAuth({ type: 'client_credentials', clientId: 'c' }, env)).toThrow('client.auth.clientSecretEnv: required with auth type "client_credentials"')
    expect(() => driverAuth({ type: 'password' }, env)).toThrow(/^client\.auth\.type: expected bearer, client_credentials, private_key_jwt or authorization_code/)
  })

  it('reads features from a refused connect, and leaves auth scenarios to clients that declare it', () => {
    expect(parseDriverLine('{"id":1,"ok":false,"error":"401","features":["auth"]}')).toEqual({ answer: { id: 1, ok: false, error: '401', features: ['auth'] } })
    const scenario = scenarios.get('oauth-client-credentials')!.scenario
    expect(scenarioNotApplicable(scenario, 'client', ['listChanged'])).toMatch(/^only for clients that declare "auth"/)
    expect(scenarioNotApplicable(scenario, 'client', ['auth'])).toBeUndefined()
    expect(scenarioNotApplicable(scenario, 'bridge', [])).toBeUndefined()
  })
})

// Real runs: the raw SDK client behind its driver, against the fixture's authorization server.
describe('the raw SDK client judged on OAuth', () => {
  const verdicts = async (id: string, driver = SDK_DRIVER) => {
    const result = await runScenario(scenarios.get(id)!, 'http', driverAdapter(driver), { updateSnapshots: false })
    return result.checks
  }

  for (const id of ['oauth-client-credentials', 'oauth-private-key-jwt', 'oauth-bearer-token-from-env', 'oauth-authorization-code']) {
    it(`${id}: signs in with the SDK's own providers and carries the token on every request`, async () => {
      const checks = await verdicts(id)
      expect(checks.filter((check) => check.status === 'fail' || check.status === 'error')).toEqual([])
      expect(checks.find((check) => check.id === 'applies/scenario')).toBeUndefined()
      // Judged, not skipped: the token was issued (or given) and used.
      expect(checks.find((check) => check.id === 'expect/bearer/valid')).toMatchObject({ status: 'pass' })
    }, 120_000)
  }

  it('a client refused for good is still judged: its driver declares auth in the failed connect', async () => {
    const checks = await verdicts('oauth-401-forever-stops')
    expect(checks.find((check) => check.id === 'applies/scenario')).toBeUndefined()
    expect(checks.filter((check) => check.status === 'fail' || check.status === 'error')).toEqual([])
    expect(checks.find((check) => check.id === 'expect/bearer/refused')).toMatchObject({ status: 'pass' })
  }, 120_000)

  for (const [bug, broken] of [['query', 'expect/bearer/query'], ['absent', 'expect/bearer/none']] as const) {
    it(`a client that declares auth and sends the token ${bug === 'query' ? 'in the query string' : 'nowhere'} fails under the MUST quoted`, async () => {
      const checks = await verdicts('oauth-bearer-token-from-env', `${FAULTY_DRIVER} ${bug}`)
      expect(checks.find((check) => check.id === broken)).toMatchObject({ status: 'fail', spec: { ref: expect.stringContaining('"authorization MUST be included in every HTTP request from client to server"') } })
    }, 120_000)
  }

  it('a driver that does not declare auth is not judged on it', async () => {
    const checks = await verdicts('oauth-client-credentials', `${NO_AUTH_DRIVER} none`)
    expect(checks.find((check) => check.id === 'applies/scenario')).toMatchObject({ status: 'skip', message: expect.stringMatching(/only for clients that declare "auth"/) })
  }, 120_000)
})
