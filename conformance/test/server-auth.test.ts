/**
 * Server mode's authorization checks against mcp-fixture's OAuth resource server on a real
 * 127.0.0.1 socket: the correct one passes every check of each revision, each `http.oauth.faults`
 * variant fails (or warns) exactly under the sentence it breaks, and a server without
 * authorization is not applicable. The kit holds no credentials, as a first-time client does.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { startHttpFixture, type BehaviourInput } from '@mcp-bridge/fixtures-server'
import type { CheckResult, SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'

type OAuthInput = NonNullable<NonNullable<BehaviourInput['http']>['oauth']>
type Fault = NonNullable<OAuthInput['faults']>[number]

interface Setup {
  faults?: Fault[]
  /** `scopes_supported` and the challenge's scope; null: none at all. */
  scopes?: string[] | null
  /** No `http.oauth` at all: a server without authorization. */
  open?: boolean
  era?: 'legacy' | 'modern'
  revision?: '2025-03-26' | '2025-06-18' | '2025-11-25'
  /** Send the fixture's good token as the configured header, as a user with credentials would. */
  token?: boolean
}

const GOOD = 'fixture-good-token'

async function run(setup: Setup = {}): Promise<SuiteResult> {
  const scopes = setup.scopes === undefined ? ['tools'] : setup.scopes
  const oauth: OAuthInput = { clientId: 'kit', staticTokens: [GOOD], ...(scopes ? { scopes } : {}), faults: setup.faults ?? [] }
  const behaviour: BehaviourInput = { tools: [{ name: 'echo' }], era: setup.era ?? 'legacy', ...(setup.open ? {} : { http: { oauth } }) }
  const fixture = await startHttpFixture(behaviour)
  try {
    const headers: Record<string, string> = setup.token ? { authorization: `Bearer ${GOOD}` } : {}
    return await runServerSuite({ kind: 'http', url: fixture.url, headers }, { requestTimeoutMs: 5_000, ...(setup.revision ? { revision: setup.revision } : {}) })
  } finally {
    await fixture.close()
  }
}

const authChecks = (suite: SuiteResult) => suite.checks.filter((c) => /^(auth\/|modern\/auth-)/.test(c.id))
const statuses = (suite: SuiteResult) => Object.fromEntries(authChecks(suite).map((c) => [c.id, c.status]))
const find = (suite: SuiteResult, id: string): CheckResult => {
  const check = suite.checks.find((c) => c.id === id)
  if (!check) throw new Error(`no ${id} in ${suite.checks.map((c) => c.id).join(', ')}`)
  return check
}

const LEGACY_PASS = { 'auth/no-credentials': 'pass', 'auth/invalid-token': 'pass', 'auth/resource-metadata-location': 'pass', 'auth/protected-resource-metadata': 'pass', 'auth/scope-hint': 'pass' }

describe('a server that asks for authorization correctly', () => {
  it('passes every authorization check of 2025-11-25, with or without the user’s credentials', async () => {
    for (const token of [false, true]) {
      const suite = await run({ token })
      expect(statuses(suite)).toEqual({ ...LEGACY_PASS, 'auth/server-metadata': 'skip' })
      expect(find(suite, 'auth/server-metadata').message).toMatch(/^not part of the negotiated revision 2025-11-25/)
    }
  })

  it('passes 2025-03-26’s authorization server metadata, and the checks that revision has', async () => {
    const suite = await run({ revision: '2025-03-26' })
    expect(statuses(suite)).toEqual({ 'auth/no-credentials': 'pass', 'auth/invalid-token': 'pass', 'auth/server-metadata': 'pass', 'auth/resource-metadata-location': 'skip', 'auth/protected-resource-metadata': 'skip', 'auth/scope-hint': 'skip' })
  })

  it('passes the 2026-07-28 checks of a modern-only server (whose era only credentials reveal)', async () => {
    const suite = await run({ era: 'modern', token: true })
    expect(statuses(suite)).toEqual({ 'modern/auth-no-credentials': 'pass', 'modern/auth-invalid-token': 'pass', 'modern/auth-protected-resource-metadata': 'pass', 'modern/auth-scope-hint': 'pass', 'modern/auth-offline-access': 'pass' })
  })
})

describe('a server without authorization', () => {
  it('is not applicable, never failed', async () => {
    const suite = await run({ open: true })
    const checks = authChecks(suite)
    expect(checks.map((c) => c.id)).toEqual(Object.keys({ ...LEGACY_PASS, 'auth/server-metadata': 0 }).sort((a, b) => checks.findIndex((c) => c.id === a) - checks.findIndex((c) => c.id === b)))
    for (const check of checks) {
      expect(check.status).toBe('skip')
      expect(check.message).toMatch(/^Not applicable: initialize without credentials got HTTP 200 and no Bearer challenge, so the server does not ask for authorization$|^not part of the negotiated revision/)
    }
    const modern = authChecks(await run({ open: true, era: 'modern' }))
    expect(modern.map((c) => c.status)).toEqual(['skip', 'skip', 'skip', 'skip', 'skip'])
  })
})

interface Case {
  name: string
  setup: Setup
  /** The authorization checks that leave `pass`, with their new status. */
  changed: Record<string, string>
  /** The first changed check cites this sentence. */
  quote: RegExp
}

const CASES: Case[] = [
  { name: '403 instead of 401', setup: { faults: ['forbidden'] }, changed: { 'auth/no-credentials': 'fail', 'auth/invalid-token': 'fail' }, quote: /^Servers MUST return appropriate HTTP status codes/ },
  { name: 'any bearer token accepted', setup: { faults: ['accept-any-token'] }, changed: { 'auth/invalid-token': 'fail' }, quote: /^Invalid or expired tokens MUST receive a HTTP 401 response/ },
  {
    name: 'a 401 without WWW-Authenticate (2025-06-18)',
    setup: { faults: ['no-challenge'], revision: '2025-06-18' },
    changed: { 'auth/resource-metadata-location': 'fail', 'auth/invalid-token': 'fail' },
    quote: /^MCP servers MUST use the HTTP header WWW-Authenticate when returning a 401/,
  },
  { name: 'a 401 without WWW-Authenticate (2025-11-25: the well-known URI suffices)', setup: { faults: ['no-challenge'] }, changed: { 'auth/invalid-token': 'fail', 'auth/scope-hint': 'warn' }, quote: /^If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3/ },
  { name: 'no resource_metadata (2025-06-18)', setup: { faults: ['no-resource-metadata'], revision: '2025-06-18' }, changed: { 'auth/resource-metadata-location': 'fail' }, quote: /^MCP servers MUST use the HTTP header WWW-Authenticate/ },
  {
    name: 'neither resource_metadata nor a well-known URI (2025-11-25)',
    setup: { faults: ['no-resource-metadata', 'no-well-known'] },
    changed: { 'auth/resource-metadata-location': 'fail', 'auth/protected-resource-metadata': 'fail' },
    quote: /^MCP servers MUST implement one of the following discovery mechanisms/,
  },
  { name: 'metadata without authorization_servers', setup: { faults: ['no-authorization-servers'] }, changed: { 'auth/protected-resource-metadata': 'fail' }, quote: /^The Protected Resource Metadata document returned by the MCP server MUST include the authorization_servers field/ },
  { name: 'no scope in the challenge', setup: { scopes: null }, changed: { 'auth/scope-hint': 'warn' }, quote: /^MCP servers SHOULD include a scope parameter/ },
  { name: '2025-03-26: default endpoints instead of metadata', setup: { faults: ['no-server-metadata'], revision: '2025-03-26' }, changed: { 'auth/server-metadata': 'warn' }, quote: /^MCP servers SHOULD and MCP clients MUST implement OAuth 2.0 Authorization Server Metadata/ },
  { name: '2025-03-26: neither metadata nor default endpoints', setup: { faults: ['no-server-metadata', 'no-token-endpoint'], revision: '2025-03-26' }, changed: { 'auth/server-metadata': 'fail' }, quote: /^Servers that do not support Authorization Server Metadata MUST follow the default URI schema/ },
  { name: '2025-03-26: metadata only at the path-inserted URI', setup: { faults: ['path-server-metadata'], revision: '2025-03-26' }, changed: { 'auth/server-metadata': 'fail' }, quote: /^The metadata endpoint MUST be at/ },
  { name: '2026-07-28: offline_access asked for', setup: { era: 'modern', token: true, scopes: ['tools', 'offline_access'] }, changed: { 'modern/auth-offline-access': 'warn' }, quote: /^MCP Servers \(Protected Resources\) SHOULD NOT include offline_access/ },
  { name: '2026-07-28: any bearer token accepted', setup: { era: 'modern', token: true, faults: ['accept-any-token'] }, changed: { 'modern/auth-invalid-token': 'fail' }, quote: /^Invalid or expired tokens MUST receive a HTTP 401 response/ },
]

describe('a server that breaks one authorization sentence', () => {
  for (const c of CASES) {
    it(`${c.name}: ${Object.entries(c.changed).map(([id, status]) => `${id} ${status}`).join(', ')}`, async () => {
      const control = statuses(await run({ ...c.setup, faults: [], scopes: ['tools'] }))
      const suite = await run(c.setup)
      const changed = Object.fromEntries(Object.entries(statuses(suite)).filter(([id, status]) => control[id] !== status))
      expect(changed).toEqual(c.changed)
      const first = find(suite, Object.keys(c.changed)[0]!)
      expect(first.spec?.quote).toMatch(c.quote)
    })
  }
})

describe('a hostile authorization server', () => {
  // A GitHub token shape: the redactor knows it, so it must never reach the report.
  const SECRET = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`

  it('is bounded: an oversized metadata document is not read on, a silent one costs one timeout, a secret is redacted', async () => {
    const hanging = new Set<ServerResponse>()
    const server = createServer((req, res) => {
      if (req.url === '/prm') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ authorization_servers: ['http://as.example'], pad: 'x'.repeat(100 * 1024) }))
      if (req.url?.startsWith('/.well-known/')) return void hanging.add(res)
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/prm", error_description="leaked ${SECRET}"` }).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
      const suite = await runServerSuite({ kind: 'http', url, headers: {} }, { requestTimeoutMs: 500 })
      const metadata = find(suite, 'auth/protected-resource-metadata')
      expect(metadata.status).toBe('fail')
      expect(metadata.message).toMatch(/\/prm: HTTP 200 but no JSON object$/)
      expect(find(suite, 'auth/no-credentials').status).toBe('pass')
      expect(JSON.stringify(suite)).not.toContain(SECRET)
    } finally {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
