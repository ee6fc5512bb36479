/**
 * modern/param-headers against the scripted 2026-07-28 server with a tool whose region is
 * mirrored into Mcp-Param-Region: correct, the kit's calls carry (or omit) the header as a client
 * must and pass; a server that expects the header for a call that leaves the region out, or that
 * serves the header with invalid characters, fails under the sentence it breaks, and nothing else
 * is flagged. Over stdio there are no headers: not testable.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import { encodeParam, paramHeaders } from '../src/server/modern/param-headers.ts'
import { judgeParamHeaders } from '../src/server/modern/param-judge.ts'
import { judgeParamNumeric } from '../src/server/modern/param-numeric.ts'
import type { ServerRunOptions } from '../src/server/run.ts'
import { BREACHES } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { runModernServer } from './server-helpers.ts'

const CALLS = [
  { name: 'locate', arguments: { region: 'us-west1', zone: 42 } },
  { name: 'locate', arguments: {} },
]
const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000, calls: CALLS }
const CHECK = 'modern/param-headers'

function run(breach?: string): Promise<SuiteResult> {
  return runModernServer(breach, OPTIONS, { params: true })
}

describe('modern/param-headers against the scripted server', () => {
  it('a server that validates Mcp-Param headers passes, and nothing is flagged', async () => {
    const suite = await run()
    expect(flagged(suite)).toEqual([])
    expect(find(suite, CHECK)).toMatchObject({
      status: 'pass',
      message: 'tools/call of "locate" without Mcp-Param headers for parameters left out: not refused for them; mcp-param-region ending in 0xE9 rejected (JSON-RPC error -32020 (Header mismatch: Mcp-Param-Region has invalid characters) with HTTP 400)',
    })
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)

  it.each([
    ['param-expected', 'MUST NOT', /^tools\/call of "locate" without Mcp-Param-Region \(not in the arguments\), Mcp-Param-Zone \(not in the arguments\) got JSON-RPC error -32020 .* with HTTP 400: the server expected a header the client must omit$/],
    ['param-unchecked', 'MUST', /^tools\/call of "locate" with mcp-param-region ending in 0xE9 \(no visible ASCII character\) got a result with HTTP 200: served, not rejected$/],
  ])('%s fails under the sentence it breaks', async (breach, keyword, message) => {
    expect(BREACHES).toHaveProperty(breach)
    const suite = await run(breach)
    expect(find(suite, CHECK)).toMatchObject({ status: 'fail', message: expect.stringMatching(message), spec: { keyword } })
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${CHECK}: `))])
    expect(exitCodeOf([suite], [])).toBe(1)
  }, 60_000)
})

describe('modern/param-numeric against the scripted server', () => {
  const NUMERIC = 'modern/param-numeric'

  it('a server that compares an integer header as a number serves "42.0" for 42, and passes', async () => {
    const suite = await run()
    expect(find(suite, NUMERIC)).toMatchObject({ status: 'pass', message: 'tools/call of "locate" with mcp-param-zone: 42.0 for the body’s 42 was served: the values were compared as numbers (a result with HTTP 200)' })
  }, 60_000)

  it('a server that compares it as text is warned under the SHOULD, and nothing else is flagged', async () => {
    expect(BREACHES).toHaveProperty('param-string-compare')
    const suite = await run('param-string-compare')
    expect(find(suite, NUMERIC)).toMatchObject({ status: 'warn', message: expect.stringMatching(/^tools\/call of "locate" with mcp-param-zone: 42.0 for the body’s 42 got JSON-RPC error -32020 .* with HTTP 400: the values were compared as strings, not as numbers$/), spec: { keyword: 'SHOULD' } })
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${NUMERIC}: `))])
  }, 60_000)

  it('over stdio, or without an integer header to rewrite, it is not testable', () => {
    expect(judgeParamNumeric('stdio', undefined)).toMatchObject({ status: 'skip', message: 'Not testable: over stdio there are no HTTP headers' })
    expect(judgeParamNumeric('http', undefined).message).toMatch(/^Not testable: no --call carried an Mcp-Param header for an integer parameter/)
  })
})

describe('the Mcp-Param headers a client sends', () => {
  it('encodes values as the revision’s value encoding says', () => {
    expect(encodeParam('us-west1')).toBe('us-west1')
    expect(encodeParam('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=')
    expect(encodeParam(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=')
    expect(encodeParam('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=')
    expect(encodeParam('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')
    expect(encodeParam(42)).toBe('42')
    expect(encodeParam(false)).toBe('false')
  })

  it('sends one per annotated parameter with a value, through nested properties, and omits absent or null ones', () => {
    const schema = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, opts: { type: 'object', properties: { tier: { type: 'integer', 'x-mcp-header': 'Tier' } } }, zone: { type: 'string', 'x-mcp-header': 'Zone' } } }
    expect(paramHeaders(schema, { region: 'eu', opts: { tier: 2 }, zone: null })).toEqual({ headers: { 'mcp-param-region': 'eu', 'mcp-param-tier': '2' }, omitted: [{ header: 'Zone', why: 'null' }], integers: { 'mcp-param-tier': 2 } })
    expect(paramHeaders(schema, {})).toEqual({ headers: {}, omitted: [{ header: 'Region', why: 'absent' }, { header: 'Tier', why: 'absent' }, { header: 'Zone', why: 'absent' }], integers: {} })
    // Only a parameter typed integer with an integer value is one the numeric probe may rewrite.
    expect(paramHeaders(schema, { region: '7', opts: { tier: 2.5 } }).integers).toEqual({})
  })

  it('over stdio the check is not testable', () => {
    expect(judgeParamHeaders('stdio', [], undefined)).toMatchObject({ status: 'skip', message: 'Not testable: over stdio there are no HTTP headers' })
  })
})
