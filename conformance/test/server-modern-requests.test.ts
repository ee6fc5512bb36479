/**
 * The modern checks past server/discover against a scripted 2026-07-28 server over HTTP: correct,
 * it gets no fail and every check is judged; each breach of one rule gets exactly that check's
 * verdict, at the keyword of the sentence it breaks (and the optional clientInfo never fails).
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import type { ServerRunOptions } from '../src/server/run.ts'
import { BREACHES } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { runModernServer } from './server-helpers.ts'

const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000, calls: [{ name: 'echo', arguments: { text: 'hi' } }] }
const JUDGED = ['modern/result-type', 'modern/error-id', 'modern/meta-required', 'modern/client-info-optional', 'modern/method-not-found', 'modern/header-mismatch', 'modern/origin', 'modern/lists', 'modern/tool-names', 'modern/resource-missing', 'modern/subscriptions-listen', 'modern/input-required']

function run(breach?: string, revision?: ServerRunOptions['revision']): Promise<SuiteResult> {
  return runModernServer(breach, { ...OPTIONS, ...(revision ? { revision } : {}) })
}

describe('a correct scripted 2026-07-28 server', () => {
  it.each([undefined, '2026-07-28'] as const)('revision %s: every request check passes, exit 0', async (revision) => {
    const suite = await run(undefined, revision)
    expect(flagged(suite)).toEqual([])
    for (const id of JUDGED) expect(find(suite, id).status, `${id}: ${find(suite, id).message}`).toBe('pass')
    expect(find(suite, 'modern/resource-missing').message).toMatch(/^resources\/read of mcp-conformance:\/\/missing\/resource got JSON-RPC error -32602/)
    expect(find(suite, 'modern/lists').message).toBe('tools/list: 1 tools, ttlMs 60000, cacheScope public; resources/list: 1 resources, ttlMs 60000, cacheScope public')
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)
})

describe('a scripted 2026-07-28 server that breaks one rule gets exactly that verdict', () => {
  it.each([
    ['no-result-type', 'modern/result-type', 'fail', /^2 of \d+ results have no string resultType: tools\/list, tools\/list again$/, 'MUST'],
    ['error-without-id', 'modern/error-id', 'fail', /^\d+ of \d+ errors do not carry their request's id: ping \(id \d+, answered with id null\)/, 'MUST'],
    ['meta-accepted', 'modern/meta-required', 'fail', /^server\/discover without the required clientCapabilities got a result with HTTP 200, not error -32602/, 'MUST'],
    ['meta-status-200', 'modern/meta-required', 'fail', /^server\/discover without clientCapabilities got JSON-RPC error -32602 \(Invalid params: required _meta field missing\) with HTTP 200: the right error, not with 400 Bad Request$/, 'MUST'],
    ['input-asks-undeclared', 'modern/input-required', 'fail', /^tools\/call of echo answered input_required asking for "confirm", though the request's clientCapabilities declare nothing$/, 'MUST NOT'],
    ['input-empty', 'modern/input-required', 'fail', /^tools\/call of echo answered input_required with neither inputRequests nor requestState$/, 'MUST'],
    ['method-status-200', 'modern/method-not-found', 'fail', /^ping got JSON-RPC error -32601 \(Method not found\) with HTTP 200: not 404 Not Found with error -32601$/, 'MUST'],
    ['headers-ignored', 'modern/header-mismatch', 'fail', /^server\/discover with Mcp-Method: tools\/list got a result: the request was served, not rejected$/, 'MUST'],
    ['origin-served', 'modern/origin', 'fail', /^server\/discover with Origin http:\/\/evil\.example got HTTP 200 and a result: the foreign origin was served, not 403 Forbidden$/, 'MUST'],
    ['negative-ttl', 'modern/lists', 'fail', /^the tools\/list result: ttlMs: -1, not ≥ 0$/, 'MUST'],
    ['no-cache-hints', 'modern/lists', 'fail', /^the resources\/list result: caching hints: ttlMs and cacheScope missing$/, 'MUST'],
    ['list-input-required', 'modern/result-type', 'fail', /^tools\/list, tools\/list again answered resultType "input_required", which only tools\/call, prompts\/get and resources\/read may$/, 'MUST NOT'],
    ['listen-notifies-first', 'modern/subscriptions-listen', 'fail', /^the first message of the stream is "notifications\/tools\/list_changed", not notifications\/subscriptions\/acknowledged$/, 'MUST NOT'],
    ['listen-no-subscription-id', 'modern/subscriptions-listen', 'fail', /^the acknowledgement's _meta\["io\.modelcontextprotocol\/subscriptionId"\] is absent, not the request's id "mcp-conformance-listen-1"$/, 'MUST'],
    ['resource-empty', 'modern/resource-missing', 'fail', /got a result with an empty contents array$/, 'MUST NOT'],
    ['resource-old-code', 'modern/resource-missing', 'fail', /got JSON-RPC error -32002 \(Resource not found\) with HTTP 200, not error -32602$/, 'MUST'],
  ])('%s: %s is %s', async (breach, id, status, message, keyword) => {
    expect(BREACHES).toHaveProperty(breach)
    const suite = await run(breach)
    expect(find(suite, id)).toMatchObject({ status, message: expect.stringMatching(message), spec: { keyword } })
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${id}: `))])
    expect(exitCodeOf([suite], [])).toBe(1)
  }, 60_000)

  it('client-info-required: information only, never a fail (clientInfo is optional, no keyword)', async () => {
    const suite = await run('client-info-required')
    expect(find(suite, 'modern/client-info-optional')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Information \(the spec states no requirement here\): server\/discover without clientInfo/), spec: { keyword: 'NONE' } })
    expect(flagged(suite)).toEqual([])
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)
})
