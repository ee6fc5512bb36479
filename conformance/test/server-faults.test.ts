/**
 * The faulty server (test/support/faulty-*.mjs), one fault at a time, against a control run of the
 * same server: each fault the audit of the server mode found misreported is now reported once, by
 * the check whose sentence it breaks, at that sentence's keyword, and nothing else changes.
 */
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { assembleReport } from '../src/report/assemble.ts'
import { formatJson } from '../src/report/json.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { delta } from './server-helpers.ts'
import { FAULTS, TOKEN } from './support/faulty-core.mjs'
import { startFaultyHttp } from './support/faulty-http.mjs'
import { findCheck as find, flagged } from './support/find-check.ts'

const SERVER = fileURLToPath(new URL('./support/faulty-stdio.mjs', import.meta.url))
const OPTIONS: Partial<ServerRunOptions> = {
  calls: [
    { name: 'echo', arguments: { message: 'hi' } },
    { name: 'add', arguments: { a: 1, b: 2 } },
  ],
  // Room for a loaded CI machine running the cases side by side: a run that expects no hang must
  // never hit it. The hang faults pass HANG_OPTIONS and wait 1 s for the answer that never comes.
  requestTimeoutMs: 10_000,
  exitGraceMs: 1_000,
}

const HANG_OPTIONS: Partial<ServerRunOptions> = { requestTimeoutMs: 1_000 }
const HANGS = new Set(['undeclared-hang', 'tools-list-hang'])

const stdio = (faults: string[] = [], options: Partial<ServerRunOptions> = {}) => runServerSuite({ kind: 'stdio', command: process.execPath, args: [SERVER, ...faults] }, { ...OPTIONS, ...options })

async function http(faults: string[] = []): Promise<SuiteResult> {
  const server = await startFaultyHttp(faults)
  try {
    return await runServerSuite({ kind: 'http', url: server.url, headers: {} }, OPTIONS)
  } finally {
    await server.close()
  }
}


interface Case {
  fault: string
  delta: Record<string, string>
  /** The message of the first check in `delta` (or of `check`). */
  message: RegExp
  check?: string
  keyword?: string
}

const CASES: Case[] = [
  // The spec sets no page limit: the kit's own cap is a skip that says what it judged.
  { fault: 'many-pages', delta: {}, check: 'tools/pagination', message: /^the kit stopped following nextCursor after 100 pages \(its own cap; the spec sets no page limit\): 100 tools on 100 pages, every cursor distinct, judged/ },
  { fault: 'cursor-loop', delta: { 'tools/pagination': 'warn' }, message: /^page 2 returned nextCursor "again", which page 1 had returned already: .* so the listing never ends$/, keyword: 'SHOULD' },
  // A protocol error is an answer the spec allows: information, with the error redacted.
  { fault: 'call-error', delta: { 'tools/call/echo': 'skip', 'tasks/undeclared-augmentation': 'skip' }, message: /^Information \(the spec states no requirement here\): the call was answered with JSON-RPC error -32603 \(Internal error: backend refused token <redacted>\), a protocol error; there is no result to judge$/, keyword: 'NONE' },
  // Envelope faults: read as what the message is, so only the envelope check changes.
  { fault: 'jsonrpc-1.0', delta: { 'jsonrpc/version': 'fail' }, message: /^response id 1 \(to initialize\) has "jsonrpc": "1.0", not "jsonrpc": "2.0" \(and \d+ more\)$/, keyword: 'MUST' },
  { fault: 'id-as-string', delta: { 'jsonrpc/response-ids': 'fail' }, message: /^response id "1" answers request 1 \(initialize\), whose id is the number 1, not a string \(and \d+ more\)$/ },
  { fault: 'ping-unsupported', delta: { 'lifecycle/ping': 'fail', 'lifecycle/cancel-unknown-request': 'skip', 'lifecycle/cancel-malformed': 'skip' }, check: 'lifecycle/cancel-unknown-request', message: /^Not testable: .*; lifecycle\/ping reports the failure$/ },
  { fault: 'progress-decreasing', delta: { 'notifications/progress': 'fail' }, message: /^progress for token "mcp-conformance-call-1" went from 5 to 2; each notification must increase it$/, keyword: 'MUST' },
  { fault: 'invalid-utf8', delta: { 'stdio/utf8': 'fail' }, message: /^1 of \d+ stdout lines were not valid UTF-8; first line \d+: .*"Echo \uFFFD\uFFFD(…)?"/, keyword: 'MUST' },
  { fault: 'undeclared-hang', delta: { 'resources/undeclared': 'fail', 'prompts/undeclared': 'fail' }, message: /^resources\/list got no response within 1000 ms; an undeclared method is refused with an error, never left unanswered$/ },
]

describe('the faulty server over stdio', () => {
  let control: SuiteResult
  beforeAll(async () => {
    control = await stdio()
  })

  it('the control run is clean, and passes nothing it did not see', () => {
    expect(flagged(control)).toEqual([])
    expect(find(control, 'tools/call/echo').status).toBe('pass')
    expect(find(control, 'notifications/progress').message).toBe('1 notifications/progress notification, a valid ProgressNotification')
    // The server sends no requests: nothing to judge, not a pass.
    expect(find(control, 'lifecycle/server-requests')).toMatchObject({ status: 'skip', message: 'nothing to judge: the server sent no requests' })
    expect(find(control, 'jsonrpc/version').status).toBe('pass')
    expect(find(control, 'stdio/utf8').status).toBe('pass')
  })

  it('every fault has a case', () => {
    const covered = [...CASES.map((c) => c.fault), 'tools-list-hang', 'init-result-and-error', 'leak']
    expect(Object.keys(FAULTS).filter((f) => !covered.includes(f))).toEqual([])
  })

  it.concurrent.each(CASES.map((c) => [c.fault, c] as const))('%s', async (_, c) => {
    const variant = await stdio([c.fault], HANGS.has(c.fault) ? HANG_OPTIONS : {})
    expect(delta(control, variant)).toEqual(c.delta)
    const check = find(variant, c.check ?? Object.keys(c.delta)[0]!)
    expect(check.message).toMatch(c.message)
    if (c.keyword) expect(check.spec?.keyword).toBe(c.keyword)
  })

  it('a hung tools/list is one failure: every check that needs the list is a skip naming tools/list, and no SHOULD check fails', async () => {
    const variant = await stdio(['tools-list-hang'], HANG_OPTIONS)
    expect(flagged(variant)).toEqual(['tools/list: page 1 got no response within 1000 ms'])
    const blocked = variant.checks.filter((c) => c.message.startsWith('Not testable:'))
    expect(blocked.map((c) => c.id)).toEqual([
      'tools/pagination',
      'tools/names-valid',
      'tools/names-unique',
      'tools/input-schema',
      'tools/output-schema',
      'tools/descriptions',
      'tools/annotations',
      'tools/task-support',
      'bridge/projection',
      'bridge/schema-size',
      'tools/call-invalid-arguments',
      'tools/call/echo',
      'tools/call/add',
    ])
    for (const check of blocked) expect(check, check.id).toMatchObject({ status: 'skip', message: expect.stringMatching(/; tools\/list reports the failure$/) })
    // Not "echo is not in tools/list": the list never came.
    expect(find(variant, 'tools/call/echo').message).toBe('Not testable: the kit cannot tell whether "echo" is a tool without a tool list; tools/list reports the failure')
  })

  it('an initialize answer with both a result and an error is named by jsonrpc/result-or-error, not as a JSON-RPC error', async () => {
    const variant = await stdio(['init-result-and-error'])
    expect(find(variant, 'lifecycle/initialize')).toMatchObject({ status: 'skip', message: 'Not testable: the answer to initialize carries both a result and an error; jsonrpc/result-or-error reports the failure' })
    expect(flagged(variant)).toEqual(['jsonrpc/result-or-error: response id 1 (to initialize) has both a result and an error'])
  })

  it('a --call of a tool the server does not list is a usage error that names the listed tools', async () => {
    const variant = await stdio([], { calls: [{ name: 'ecko', arguments: {} }] })
    expect(find(variant, 'tools/call/ecko')).toMatchObject({ status: 'error', message: '--call "ecko": tools/list does not list this tool (it lists "echo", "add"); check the --call name against the listed tools' })
  })

  it('the kit’s citations survive redaction verbatim in results.json; what the server said does not', async () => {
    const variant = await stdio(['leak'])
    const report = assembleReport({ suites: [variant], baseline: [], tool: { name: 'mcp-conformance', version: '0' }, startedAt: new Date(0).toISOString(), durationMs: 0 })
    const json = JSON.parse(formatJson(report)) as { suites: SuiteResult[] }
    const suite = json.suites[0]!
    expect(find(suite, 'tools/call/echo').spec?.quote).toBe(
      'CallToolResult { content: ContentBlock[]; structuredContent?: { [key: string]: unknown }; isError?: boolean }; ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource',
    )
    expect(find(suite, 'notifications/tools-list-changed').spec?.quote).toBe('ToolListChangedNotification { method: "notifications/tools/list_changed"; params?: { _meta?: { [key: string]: unknown } } }')
    const text = JSON.stringify(json)
    expect(text).not.toContain(TOKEN)
    expect(JSON.stringify(find(suite, 'tools/call/echo').wire)).toContain('hi (token <redacted>)')
  })
})

describe('the faulty server over Streamable HTTP', () => {
  let control: SuiteResult
  beforeAll(async () => {
    control = await http()
  })
  afterAll(() => undefined)

  it('the control run is clean', () => {
    expect(flagged(control)).toEqual([])
  })

  it('a wrong "jsonrpc" value on every message fails jsonrpc/version alone', async () => {
    const variant = await http(['jsonrpc-1.0'])
    expect(delta(control, variant)).toEqual({ 'jsonrpc/version': 'fail' })
    expect(find(variant, 'jsonrpc/version').spec?.url).toBe('https://www.jsonrpc.org/specification#request_object')
  })

  it('an initialize answer with both a result and an error is named once', async () => {
    const variant = await http(['init-result-and-error'])
    expect(flagged(variant)).toEqual(['jsonrpc/result-or-error: response id 1 (to initialize) has both a result and an error'])
    expect(find(variant, 'lifecycle/initialize').status).toBe('skip')
  })
})
