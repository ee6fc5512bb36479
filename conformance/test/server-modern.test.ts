/**
 * Server mode and a server of the MCP TypeScript SDK v2 (@modelcontextprotocol/server): one that
 * speaks only 2026-07-28 is recognised by the signals that revision defines, judged by the modern
 * checks and never failed for refusing the legacy initialize; a dual-era one is judged as before.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import type { ServerSuite } from '../src/report/revisions.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { startV2Http } from '../../plugin/test/support/v2-server.mjs'
import { findCheck as find, flagged, flaggedBeyondSdk } from './support/find-check.ts'

const STDIO_SERVER = fileURLToPath(new URL('../../plugin/test/support/v2-server.mjs', import.meta.url))
const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000, calls: [{ name: 'echo', arguments: { text: 'hi' } }] }
const MODERN_PASSES = ['modern/initialize-refusal', 'modern/discover', 'modern/server-info', 'modern/unsupported-version']

async function http(legacy: 'reject' | 'stateless', fault?: string, revision?: ServerRunOptions['revision']): Promise<SuiteResult> {
  const server = await startV2Http({ legacy, ...(fault ? { fault } : {}) })
  try {
    return await runServerSuite({ kind: 'http', url: server.url, headers: {} }, { ...OPTIONS, ...(revision ? { revision } : {}) })
  } finally {
    await server.close()
  }
}

function stdio(legacy: 'reject' | 'serve', revision?: ServerRunOptions['revision']): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [STDIO_SERVER, 'stdio', legacy] }, { ...OPTIONS, ...(revision ? { revision } : {}) })
}

function expectModernOnlyPasses(suite: SuiteResult): void {
  expect(flaggedBeyondSdk(suite)).toEqual([])
  expect(exitCodeOf([suite], [])).toBe(0)
  expect(find(suite, 'lifecycle/initialize')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^not judged: the server speaks only "2026-07-28" .*refused initialize for 2025-11-25 with JSON-RPC error -32022/) })
  for (const id of MODERN_PASSES) expect(find(suite, id).status, id).toBe('pass')
  expect(find(suite, 'modern/not-yet-judged')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^MCP 2026-07-28 is judged only by the modern\/\* checks .*not implemented yet: /) })
  // Nothing of the legacy lifecycle runs against it: no ping, no tools/list under initialize.
  expect(suite.checks.map((c) => c.id).filter((id) => !id.startsWith('modern/'))).toEqual(['lifecycle/initialize'])
}

describe('a v2 server that speaks only 2026-07-28', () => {
  it('over Streamable HTTP (createMcpHandler, legacy: reject): recognised, judged by the modern checks, exit 0', async () => {
    const suite = await http('reject')
    expectModernOnlyPasses(suite)
    expect(find(suite, 'modern/discover').spec).toMatchObject({ keyword: 'MUST', url: 'https://modelcontextprotocol.io/specification/2026-07-28/server/discover', quote: expect.stringMatching(/Servers MUST implement it\.$/) })
    expect(find(suite, 'modern/unsupported-version').message).toMatch(/^error -32022 lists supported "2026-07-28", with HTTP 400$/)
  }, 60_000)

  it('over stdio (serveStdio, legacy: reject): the same', async () => {
    const suite = await stdio('reject')
    expectModernOnlyPasses(suite)
    expect(find(suite, 'modern/unsupported-version').message).toMatch(/^error -32022 lists supported "2026-07-28"$/)
  }, 60_000)

  it('a run pinned to a legacy revision judges nothing of it: a skip, the revision not supported, no fail', async () => {
    const suite = (await stdio('reject', '2025-06-18')) as ServerSuite
    expect(suite.checks.map((c) => `${c.id} ${c.status}`)).toEqual(['lifecycle/initialize skip'])
    expect(suite.revision).toEqual({ requested: '2025-06-18', supported: false })
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)
})

describe('a modern-only server that breaks a 2026-07-28 rule gets exactly that verdict', () => {
  it.each([
    ['discover-no-ttl', 'modern/discover', 'fail', /^the DiscoverResult breaks the schema: ttlMs: required number ≥ 0, found undefined$/, 'SCHEMA'],
    ['discover-not-found', 'modern/discover', 'fail', /^server\/discover got JSON-RPC error -32601 \(Method not found\), not a DiscoverResult$/, 'MUST'],
    ['unsupported-status-200', 'modern/unsupported-version', 'fail', /^the error came with HTTP 200, not 400 Bad Request$/, 'MUST'],
    ['bare-refusal', 'modern/initialize-refusal', 'warn', /^the error to initialize \(JSON-RPC error -32022 \(Bad Request\)\) names none of the versions/, 'SHOULD'],
  ])('%s: %s is %s', async (fault, id, status, message, keyword) => {
    const suite = await http('reject', fault)
    expect(find(suite, id)).toMatchObject({ status, message: expect.stringMatching(message), spec: { keyword } })
    // Still recognised as modern: the legacy initialize is never the verdict.
    expect(find(suite, 'lifecycle/initialize').status).toBe('skip')
    expect(flaggedBeyondSdk(suite)).toHaveLength(1)
  }, 60_000)
})

describe('a dual-era v2 server is judged as a legacy one, as before', () => {
  it.each(['http', 'stdio'] as const)('over %s: initialize succeeds, no modern/* check, no fail', async (transport) => {
    const suite = transport === 'http' ? await http('stateless') : await stdio('serve')
    // The SDK's stateless legacy leg opens its event streams without a priming event: a SHOULD of 2025-11-25.
    expect(flagged(suite)).toEqual(transport === 'http' ? [expect.stringMatching(/^http\/sse-priming: /)] : [])
    expect(exitCodeOf([suite], [])).toBe(0)
    expect(find(suite, 'lifecycle/initialize').status).toBe('pass')
    expect(find(suite, 'lifecycle/protocol-version').message).toBe('the server agreed to the requested revision 2025-11-25')
    expect(find(suite, 'tools/call/echo').status).toBe('pass')
    expect(suite.checks.filter((c) => c.id.startsWith('modern/'))).toEqual([])
  }, 60_000)
})

describe('--spec-version 2026-07-28 judges a server at the modern revision, whatever else it speaks', () => {
  const PINNED = ['modern/discover', 'modern/server-info', 'modern/unsupported-version']

  it.each([
    ['a modern-only server over HTTP', () => http('reject', undefined, '2026-07-28')],
    ['a dual-era server over HTTP', () => http('stateless', undefined, '2026-07-28')],
    ['a dual-era server over stdio', () => stdio('serve', '2026-07-28')],
  ])('%s: no initialize, the modern checks pass, the suite is server@2026-07-28', async (_, run) => {
    const suite = (await run()) as ServerSuite
    for (const id of PINNED) expect(find(suite, id).status, id).toBe('pass')
    expect(suite.checks.map((c) => c.id).filter((id) => !id.startsWith('modern/'))).toEqual([])
    expect(suite.id).toBe('server@2026-07-28')
    expect(suite.revision).toEqual({ requested: '2026-07-28', supported: true })
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)

  it('a legacy-only server (the kit\'s own fixture) does not speak it: one skip that says so, exit 0', async () => {
    const fixture = fileURLToPath(new URL('../../fixtures-server/bin/mcp-fixture.js', import.meta.url))
    const behaviour = fileURLToPath(new URL('../../scenarios/clean-discovery.yaml', import.meta.url))
    const suite = (await runServerSuite({ kind: 'stdio', command: process.execPath, args: [fixture, behaviour] }, { ...OPTIONS, revision: '2026-07-28' })) as ServerSuite
    expect(suite.checks.map((c) => `${c.id} ${c.status}`)).toEqual(['modern/not-yet-judged skip'])
    expect(find(suite, 'modern/not-yet-judged').message).toMatch(/^not judged: the server does not speak 2026-07-28 \(server\/discover, sent the 2026-07-28 way, answered error -32601\)/)
    expect(suite.revision).toEqual({ requested: '2026-07-28', supported: false })
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)
})
