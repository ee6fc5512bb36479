/**
 * modern/name-header against the scripted 2026-07-28 server over real HTTP on 127.0.0.1: the
 * correct server (which decodes the Base64 sentinel and requires Mcp-Name) passes; each way of
 * getting Mcp-Name validation wrong fails under the sentence it breaks; the pure verdict skips
 * what it cannot judge.
 */
import { startHttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import { judgeNameHeader } from '../src/server/modern/name-header.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import type { RpcOutcome } from '../src/server/wire/types.ts'
import { BREACHES } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { runModernServer } from './server-helpers.ts'

const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000 }
const ID = 'modern/name-header'

function run(breach?: string): Promise<SuiteResult> {
  return runModernServer(breach, OPTIONS)
}

describe('modern/name-header against a scripted 2026-07-28 server', () => {
  it('the correct server passes, exit 0', async () => {
    const suite = await run()
    expect(find(suite, ID)).toMatchObject({
      status: 'pass',
      message: 'resources/read of fixture://notes/readme: a wrong or missing Mcp-Name got HTTP 400 with -32020; the Base64-encoded one was served as the plain one was',
    })
    expect(flagged(suite)).toEqual([])
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)

  it.each([
    ['name-unchecked', /^resources\/read of fixture:\/\/notes\/readme with an Mcp-Name naming something else got a result: the request was served, not rejected$/, /^Any server that processes the message body MUST validate/],
    ['name-optional', /^resources\/read of fixture:\/\/notes\/readme without Mcp-Name got a result: the request was served, not rejected$/, /Server MUST reject the request$/],
    ['name-not-decoded', /^resources\/read of fixture:\/\/notes\/readme with its Mcp-Name Base64-encoded \(=\?base64\?…\?=\) got JSON-RPC error -32020 .* with HTTP 400, though the decoded value matches the body/, /servers MUST decode an encoded Mcp-Name/],
    ['name-status-200', /^resources\/read of fixture:\/\/notes\/readme with an Mcp-Name naming something else got JSON-RPC error -32020 \(Header mismatch: Mcp-Name\) with HTTP 200, not HTTP 400 with error -32020$/, /400 Bad Request HTTP status and JSON-RPC error code -32020/],
  ])('%s fails under the sentence it breaks', async (breach, message, quote) => {
    expect(BREACHES).toHaveProperty(breach)
    const suite = await run(breach)
    expect(find(suite, ID)).toMatchObject({ status: 'fail', message: expect.stringMatching(message), spec: { keyword: 'MUST', quote: expect.stringMatching(quote) } })
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${ID}: `))])
    expect(exitCodeOf([suite], [])).toBe(1)
  }, 60_000)
})

describe('modern/name-header against mcp-fixture speaking only 2026-07-28', () => {
  it.each([
    ['a resource', { resources: { items: [{ uri: 'fixture://notes/a', name: 'a', text: 'hello' }] } }, 'resources/read of fixture://notes/a'],
    ['only a prompt', { prompts: { items: [{ name: 'greet', text: 'Hello' }] } }, 'prompts/get of greet'],
  ])('with %s: passes', async (_, beyond, label) => {
    const fixture = await startHttpFixture({ name: 'name-header', era: 'modern', tools: [], ...beyond })
    try {
      const suite = await runServerSuite({ kind: 'http', url: fixture.url, headers: {} }, OPTIONS)
      expect(find(suite, ID)).toMatchObject({ status: 'pass', message: expect.stringMatching(new RegExp(`^${label}: a wrong or missing Mcp-Name got HTTP 400 with -32020`)) })
    } finally {
      await fixture.close()
    }
  }, 60_000)
})

describe('judgeNameHeader (pure)', () => {
  const result = { kind: 'result', result: {}, wire: [] } as unknown as RpcOutcome
  const refused = { kind: 'error', error: { code: -32020, message: 'Header mismatch' }, http: { status: 400 }, wire: [] } as unknown as RpcOutcome

  it('skips over stdio, without a target, and when even the correct header is refused', () => {
    expect(judgeNameHeader(undefined, 'stdio')).toMatchObject({ status: 'skip', message: expect.stringMatching(/Streamable HTTP only/) })
    expect(judgeNameHeader(undefined, 'http')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Not testable: no listed resource/) })
    expect(judgeNameHeader({ label: 'x', control: refused, mismatch: refused, missing: refused, encoded: refused }, 'http')).toMatchObject({ status: 'skip', message: expect.stringMatching(/refuses even the correct header/) })
  })

  it('fails a probe left without an answer under the reply rule', () => {
    const timeout = { kind: 'timeout', afterMs: 5, wire: [] } as unknown as RpcOutcome
    expect(judgeNameHeader({ label: 'x', control: result, mismatch: timeout, missing: refused, encoded: result }, 'http')).toMatchObject({ status: 'fail', spec: { quote: expect.stringMatching(/MUST reply with a Response/) } })
  })
})
