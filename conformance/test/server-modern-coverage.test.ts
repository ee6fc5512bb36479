/**
 * The 2026-07-28 checks that account for the revision's remaining sentences (probe-rules.ts,
 * meta-rules.ts, notice-rules.ts, the cancellations of envelope-rules.ts): the scripted correct
 * server passes each; each scripted breach gets exactly that check's verdict, at the keyword of the
 * sentence it breaks; the pure pieces judge recorded answers the same way.
 */
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { exitCodeOf } from '../src/report/assemble.ts'
import { judgeCancelIgnored } from '../src/server/modern/envelope.ts'
import { keyIssue, traceIssue } from '../src/server/modern/meta.ts'
import { judgePosts } from '../src/server/modern/posts.ts'
import { judgeCapabilityDeclared, judgeStandardErrors, uriIssue } from '../src/server/modern/probes.ts'
import type { ServerRunOptions } from '../src/server/run.ts'
import type { RpcOutcome } from '../src/server/wire/types.ts'
import { BREACHES } from './fixtures/modern-server/index.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'
import { runModernServer } from './server-helpers.ts'

const OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 5_000, exitGraceMs: 1_000, calls: [{ name: 'echo', arguments: { text: 'hi' } }] }
const JUDGED = ['modern/earlier-traffic', 'modern/post-answers', 'modern/standard-errors', 'modern/capability-declared', 'modern/tool-list', 'modern/resource-read', 'modern/meta-keys', 'modern/result-server-info', 'modern/unasked-notifications', 'modern/cancel-ignored']

function run(breach?: string): Promise<SuiteResult> {
  return runModernServer(breach, OPTIONS)
}

describe('the scripted correct 2026-07-28 server', () => {
  it('passes every check of the remaining sentences, exit 0', async () => {
    const suite = await run()
    expect(flagged(suite)).toEqual([])
    for (const id of JUDGED) expect(find(suite, id).status, `${id}: ${find(suite, id).message}`).toBe('pass')
    expect(find(suite, 'modern/standard-errors').message).toBe('tools/list with cursor mcp-conformance-invalid-cursor, server/discover with io.modelcontextprotocol/logLevel mcp-conformance-no-such-level: error -32602')
    expect(find(suite, 'modern/missing-client-capability').status).toBe('skip')
    expect(exitCodeOf([suite], [])).toBe(0)
  }, 60_000)
})

describe('a scripted server that breaks one of the remaining sentences gets exactly that verdict', () => {
  it.each([
    ['log-unasked', 'modern/unasked-notifications', 'fail', /^the server sent 2 unasked notifications \("notifications\/message"\), though no request set io\.modelcontextprotocol\/logLevel and the DiscoverResult does not declare logging$/, 'MUST'],
    ['progress-unasked', 'modern/unasked-notifications', 'fail', /^the server sent 2 unasked notifications \("notifications\/progress"\), though no request carried a progressToken$/, 'MUST'],
    ['result-no-server-info', 'modern/result-server-info', 'warn', /^\d+ of \d+ results carry no _meta\["io\.modelcontextprotocol\/serverInfo"\]: tools\/list/, 'SHOULD'],
    ['bad-meta-key', 'modern/meta-keys', 'fail', /^tools\/list: "1fixture\/note": the prefix label "1fixture" does not start with a letter/, 'MUST'],
    ['unknown-result-type', 'modern/result-type', 'fail', /^tools\/list, tools\/list again answered resultType "task", which the core protocol does not define and no declared extension adds$/, 'MUST'],
    ['cursor-served', 'modern/standard-errors', 'warn', /^tools\/list with cursor mcp-conformance-invalid-cursor got a result with HTTP 200, not error -32602 Invalid params$/, 'SHOULD'],
    ['prompts-undeclared', 'modern/capability-declared', 'fail', /^prompts\/list listed 1 prompts, though the DiscoverResult does not declare prompts$/, 'MUST'],
    ['capability-status-200', 'modern/missing-client-capability', 'fail', /^tools\/call of echo got error -32021 with HTTP 200, not 400 Bad Request$/, 'MUST'],
    ['read-no-hints', 'modern/resource-read', 'fail', /^the resources\/read of fixture:\/\/notes\/readme result has no ttlMs or no cacheScope$/, 'MUST'],
    ['schema-null', 'modern/tool-list', 'fail', /^the inputSchema of "echo" is null, not a JSON Schema object$/, 'MUST'],
    ['notification-200', 'modern/post-answers', 'fail', /^the notification notifications\/cancelled got HTTP 200, not 202 Accepted with no body/, 'MUST'],
    ['session-minted', 'modern/earlier-traffic', 'warn', /^server\/discover with a stale Mcp-Session-Id was answered with an Mcp-Session-Id header: a session id minted or echoed$/, 'SHOULD'],
    ['input-foreign', 'modern/input-required', 'fail', /^tools\/call of echo answered input_required whose inputRequests\["tools"\] has method "tools\/list", not elicitation\/create/, 'MUST'],
    ['sse-open', 'modern/sse-end', 'warn', /^the event stream of tools\/list was still open 5000 ms after the response it carried \(\d+ of \d+ streams\)$/, 'SHOULD'],
    ['sse-no-accel', 'modern/sse-accel-buffering', 'warn', /^\d+ of \d+ event streams came without X-Accel-Buffering: no \(no such header\), for tools\/list$/, 'SHOULD'],
  ])('%s: %s is %s', async (breach, id, status, message, keyword) => {
    expect(BREACHES).toHaveProperty(breach)
    const suite = await run(breach)
    expect(find(suite, id)).toMatchObject({ status, message: expect.stringMatching(message), spec: { keyword } })
    expect(flagged(suite)).toEqual([expect.stringMatching(new RegExp(`^${id}: `))])
    expect(exitCodeOf([suite], [])).toBe(status === 'fail' ? 1 : 0)
  }, 60_000)
})

const error = (code: number, status = 400): RpcOutcome => ({ kind: 'error', error: { code, message: 'x' }, wire: [], http: { status } }) as unknown as RpcOutcome
const result = (value: Record<string, unknown>): RpcOutcome => ({ kind: 'result', result: { resultType: 'complete', ...value }, wire: [] }) as unknown as RpcOutcome
const closed: RpcOutcome = { kind: 'closed', wire: [] } as unknown as RpcOutcome

describe('the pure verdicts, on recorded answers', () => {
  it('an invalid cancellation that silences the server is a warn under the sentence of the first one sent', () => {
    expect(judgeCancelIgnored({ sent: ['unknown', 'completed', 'malformed'], after: result({}) }, '2026-07-28')).toMatchObject({ status: 'pass' })
    expect(judgeCancelIgnored({ sent: ['unknown', 'completed', 'malformed'], after: closed }, '2026-07-28')).toMatchObject({ status: 'warn', spec: { quote: 'Invalid cancellation notifications SHOULD be ignored: Unknown request IDs' } })
    expect(judgeCancelIgnored({ sent: ['malformed'], after: closed }, '2026-07-28')).toMatchObject({ status: 'warn', spec: { quote: 'Invalid cancellation notifications SHOULD be ignored: Malformed notifications' } })
  })

  it('bad input: -32602 passes, another code warns, silence on an invalid cursor is the "gracefully" sentence', () => {
    expect(judgeStandardErrors([{ label: 'a', ruleCase: 'prompt-name', outcome: error(-32602) }]).status).toBe('pass')
    expect(judgeStandardErrors([{ label: 'a', ruleCase: 'prompt-name', outcome: error(-32603) }])).toMatchObject({ status: 'warn', spec: { quote: expect.stringContaining('Invalid prompt name') } })
    expect(judgeStandardErrors([{ label: 'a', ruleCase: 'cursor', outcome: closed }])).toMatchObject({ status: 'warn', spec: { quote: 'Servers SHOULD: Handle invalid cursors gracefully' } })
  })

  it('completions undeclared: a result fails, -32601 passes, another error warns', () => {
    expect(judgeCapabilityDeclared([], result({ completion: { values: [] } }))).toMatchObject({ status: 'fail', spec: { quote: 'Servers that support completions MUST declare the completions capability:' } })
    expect(judgeCapabilityDeclared([], error(-32601, 404)).status).toBe('pass')
    expect(judgeCapabilityDeclared([], error(-32602))).toMatchObject({ status: 'warn' })
    // An empty list of an undeclared feature is no feature served.
    expect(judgeCapabilityDeclared([{ label: 'tools/list', feature: 'tools', outcome: result({ tools: [] }) }], undefined).status).toBe('pass')
  })

  it('POST answers: a 2xx request answer of another Content-Type fails, a refused notification passes', () => {
    const post = (contentType: string) => ({ kind: 'request' as const, method: 'tools/list', status: 200, contentType })
    const notified = (status: number) => [{ method: 'notifications/cancelled', outcome: { ok: status < 300, wire: [], http: { status } } as never }]
    expect(judgePosts([post('application/json; charset=utf-8')], notified(202), '2026-07-28').status).toBe('pass')
    expect(judgePosts([post('text/plain')], [], '2026-07-28')).toMatchObject({ status: 'fail', message: expect.stringMatching(/Content-Type text\/plain/) })
    expect(judgePosts([], notified(400), '2026-07-28').status).toBe('pass')
    expect(judgePosts([], notified(302), '2026-07-28')).toMatchObject({ status: 'fail', spec: { quote: expect.stringMatching(/^If the server cannot accept it/) } })
  })

  it('_meta key names, extension identifiers, trace context and URIs', () => {
    expect(keyIssue('io.modelcontextprotocol/serverInfo')).toBeUndefined()
    expect(keyIssue('progressToken')).toBeUndefined()
    expect(keyIssue('com.example/')).toBeUndefined()
    expect(keyIssue('com.example-/x')?.ruleCase).toBe('prefix')
    expect(keyIssue('com.example/-x')?.ruleCase).toBe('name')
    expect(keyIssue('tasks', true)?.ruleCase).toBe('extension')
    expect(keyIssue('io.modelcontextprotocol/tasks', true)).toBeUndefined()
    expect(traceIssue('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBeUndefined()
    expect(traceIssue('traceparent', '00-0000-00f067aa0ba902b7-01')).toBeDefined()
    expect(traceIssue('tracestate', 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE')).toBeUndefined()
    expect(traceIssue('baggage', 'userId=alice,serverNode=DF%2028')).toBeUndefined()
    expect(traceIssue('baggage', 'no equals sign')).toBeDefined()
    expect(uriIssue('fixture://notes/readme')).toBeUndefined()
    expect(uriIssue('file:///a%20b')).toBeUndefined()
    expect(uriIssue('not a uri')).toBeDefined()
    expect(uriIssue('x:%zz')).toBeDefined()
  })
})
