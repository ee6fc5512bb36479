/**
 * Deliberately broken HTTP servers, one fault each. Every fault is compared with a control run
 * of the same server without it: the checks that change must be exactly the ones that should.
 */
import { McpError, ErrorCode, CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { describeNetworkError, TLS_FAILED } from '../src/server/wire/http-post.ts'
import { delta, startRawHttp, startSdkHttp, statuses, type RawHttpFault } from './server-helpers.ts'

type Page = { tools: unknown[]; nextCursor?: string }

const echo = (name = 'echo', inputSchema: unknown = { type: 'object', properties: { text: { type: 'string' } } }) => ({ name, description: `${name} tool`, inputSchema })

/** A low-level SDK Server whose tools/list answer is whatever `pages` says (no validation). */
function toolServer(pages: (cursor: string | undefined) => Page): () => Server {
  return () => {
    const server = new Server({ name: 'sdk-fixture', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async (request) => pages(request.params?.cursor) as never)
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`)
    })
    return server
  }
}

async function runAgainst(start: () => Promise<{ url: string; close: () => Promise<void> }>, timeoutMs = 10_000): Promise<SuiteResult> {
  const server = await start()
  try {
    return await runServerSuite({ kind: 'http', url: server.url, headers: {} }, { requestTimeoutMs: timeoutMs })
  } finally {
    await server.close()
  }
}

describe('SDK low-level Server faults in tools/list', () => {
  let control: SuiteResult
  beforeAll(async () => {
    control = await runAgainst(() => startSdkHttp(toolServer(() => ({ tools: [echo('echo'), echo('other')] }))))
  })

  it('the control run has no failures and no harness errors', () => {
    const flagged = control.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id)
    expect(flagged).toEqual([])
    expect(statuses(control)['tools/pagination']).toBe('skip')
  })

  it('duplicate names: names-unique warns (a SHOULD) and the bridge projection warns, never fails; nothing else changes', async () => {
    const variant = await runAgainst(() => startSdkHttp(toolServer(() => ({ tools: [echo('echo'), echo('echo')] }))))
    expect(delta(control, variant)).toEqual({ 'tools/names-unique': 'warn', 'bridge/projection': 'warn' })
    expect(variant.checks.find((c) => c.id === 'bridge/projection')?.message).toContain('refuses the whole list')
  })

  it('an invalid inputSchema: only tools/input-schema fails', async () => {
    const broken = echo('other', { type: 'object', properties: { text: { type: 'strin' } } })
    const variant = await runAgainst(() => startSdkHttp(toolServer(() => ({ tools: [echo('echo'), broken] }))))
    expect(delta(control, variant)).toEqual({ 'tools/input-schema': 'fail' })
    expect(variant.checks.find((c) => c.id === 'tools/input-schema')?.message).toMatch(/"other": invalid 2020-12 schema: breaks the 2020-12 meta-schema/)
  })

  it('a cursor that repeats: only tools/pagination warns (servers SHOULD provide stable cursors), and the run still ends', async () => {
    const pages = (cursor: string | undefined): Page => (cursor === undefined ? { tools: [echo('echo')], nextCursor: 'again' } : { tools: [echo('other')], nextCursor: 'again' })
    const variant = await runAgainst(() => startSdkHttp(toolServer(pages)))
    expect(delta(control, variant)).toEqual({ 'tools/pagination': 'warn' })
    expect(variant.checks.find((c) => c.id === 'tools/pagination')?.message).toContain('so the listing never ends')
  })

  it('invalid names under 2025-11-25: only names-valid warns, and the projection rewrites them', async () => {
    const variant = await runAgainst(() => startSdkHttp(toolServer(() => ({ tools: [echo('echo'), echo('has space/slash')] }))))
    expect(delta(control, variant)).toEqual({ 'tools/names-valid': 'warn' })
    const projection = variant.checks.find((c) => c.id === 'bridge/projection')
    expect(projection?.message).toMatch(/"has space\/slash" → mcp__sdk-fixture__has_space_slash_[0-9a-f]{12}/)
  })
})

describe('raw node:http transport faults', () => {
  let control: SuiteResult
  beforeAll(async () => {
    control = await runAgainst(() => startRawHttp('none'))
  })

  it('the control server passes every HTTP check (a batch under 2025-11-25 is information either way)', () => {
    const http = control.checks.filter((c) => c.id.startsWith('http/'))
    expect(http.length).toBe(19)
    expect(http.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.message}`)).toEqual([
      'http/reply-accepted: the server sent no request, so the kit POSTed no response to judge',
      'http/sse-priming: no request was answered with an event stream',
      'http/sse-resumption: no event stream was closed before its response; the polling model was not used',
      'http/sse-end: no request was answered on an event stream of its own; nothing to judge',
      'http/sse-event-ids: the server attached no id to the events of its streams; nothing to judge',
      'http/replay-own-stream: the server closed no request stream before its response, so the kit resumed none; nothing to judge',
      'http/no-broadcast: the server sent no request on any stream; notifications carry no identity to follow, so nothing to judge',
      'http/batch: Information (the spec states no requirement here): a batch got HTTP 400 (2025-11-25 has no batches)',
      'http/get-stream-no-response: GET opened no event stream (HTTP 405); nothing to judge',
    ])
    expect(control.checks.filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error')).toEqual([])
  })

  const cases: Array<[RawHttpFault, Record<string, string>]> = [
    ['notification-200', { 'http/notification-accepted': 'fail' }],
    ['text-plain', { 'http/post-response-type': 'fail' }],
    // Only the client is bound to single messages from 2025-06-18: a served batch is information too.
    ['accept-batch', {}],
    ['no-origin-check', { 'http/origin-rejected': 'fail' }],
  ]
  it.each(cases)('%s is flagged by exactly %j', async (fault, expected) => {
    const variant = await runAgainst(() => startRawHttp(fault))
    expect(delta(control, variant)).toEqual(expected)
  })

  it('judges what the server answers to the kit’s own reply to its request: 202 passes, 200 with a body fails the 202 MUST', async () => {
    const accepted = (await runAgainst(() => startRawHttp('server-request'))).checks.find((c) => c.id === 'http/reply-accepted')
    expect(accepted).toMatchObject({ status: 'pass', message: '1 response the kit POSTed back, each answered 202 with no body' })
    const answered = (await runAgainst(() => startRawHttp('reply-200'))).checks.find((c) => c.id === 'http/reply-accepted')
    expect(answered).toMatchObject({ status: 'fail', message: '1 response the kit POSTed back got HTTP 200, not 202 Accepted with no body' })
    expect(answered?.spec?.quote).toBe('If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body.')
  })

  it('a tools/list that never answers becomes a bounded failure, not a hang', async () => {
    const variant = await runAgainst(() => startRawHttp('hang-tools-list'), 500)
    const list = variant.checks.find((c) => c.id === 'tools/list')
    expect(list).toMatchObject({ status: 'fail', message: 'page 1 got no response within 500 ms' })
    expect(variant.checks.filter((c) => c.status === 'error')).toEqual([])
    // Everything downstream of the list is "not testable", naming the check that reports why; one fault, one failure.
    expect(variant.checks.find((c) => c.id === 'tools/names-unique')).toMatchObject({ status: 'skip', message: 'Not testable: there is no tool list to judge; tools/list reports the failure' })
    expect(variant.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['tools/list'])
  })

  it('an unreachable URL is a harness error (exit 2), not a verdict on a server', async () => {
    const server = await startRawHttp('none')
    await server.close()
    const suite = await runServerSuite({ kind: 'http', url: server.url, headers: {} })
    expect(suite.checks).toHaveLength(1)
    expect(suite.checks[0]).toMatchObject({ id: 'lifecycle/initialize', status: 'error' })
    // A port fetch refuses to use at all is the URL's problem too.
    const blocked = await runServerSuite({ kind: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} })
    expect(blocked.checks).toHaveLength(1)
    expect(blocked.checks[0]).toMatchObject({ id: 'lifecycle/initialize', status: 'error', message: expect.stringMatching(/bad port/) })
  })

  it('a TLS handshake that fails is a harness error that says what to do, not a verdict on a server', async () => {
    // https:// to a server that speaks plain HTTP: OpenSSL's "wrong version number".
    const server = await startRawHttp('none')
    try {
      const suite = await runServerSuite({ kind: 'http', url: server.url.replace(/^http:/, 'https:'), headers: {} })
      expect(suite.checks).toHaveLength(1)
      expect(suite.checks[0]).toMatchObject({
        id: 'lifecycle/initialize',
        status: 'error',
        message: expect.stringMatching(/the TLS handshake failed \(ERR_SSL_WRONG_VERSION_NUMBER\): the server does not speak TLS on this port; if it serves plain HTTP, give the URL with http:\/\//),
      })
      expect(suite.checks[0]!.message).not.toMatch(/SSL routines/)
    } finally {
      await server.close()
    }
  })

  it.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /NODE_EXTRA_CA_CERTS=ca\.pem/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /NODE_EXTRA_CA_CERTS=ca\.pem/],
    ['CERT_HAS_EXPIRED', /outside its validity period/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /does not name this host/],
  ])('a certificate refused as %s is described with its remedy', (code, remedy) => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('openssl text'), { code }) })
    const text = describeNetworkError(error)
    expect(text).toContain(`${TLS_FAILED} (${code})`)
    expect(text).toMatch(remedy)
    expect(text).not.toContain('openssl text')
  })
})

afterAll(() => undefined)
