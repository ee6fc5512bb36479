/**
 * Every rule the server checks enforce, against the rule server (test/fixtures/rule-server) over
 * stdio and Streamable HTTP. Obeying every rule, it gets no fail and no warn, although it
 * heartbeats with ping, uses draft-04 and 2020-12 schemas with $refs and validates its prompt
 * arguments. With one fault, exactly the checks of the broken rule change, to the status the
 * cited sentence's keyword gives.
 */
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckResult, SuiteResult } from '../src/model.ts'
import { definitionOf } from '../src/server/registry/index.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { FAULTS, HTTP_FAULTS, startRuleHttp } from './fixtures/rule-server/index.mjs'
import { delta } from './server-helpers.ts'

type Transport = 'stdio' | 'http'
const STDIO_SERVER = fileURLToPath(new URL('./fixtures/rule-server/stdio.mjs', import.meta.url))
const OPTIONS: Partial<ServerRunOptions> = {
  calls: [
    { name: 'echo', arguments: { text: 'hi' } },
    { name: 'structured', arguments: {} },
  ],
  requestTimeoutMs: 3_000,
  exitGraceMs: 1_000,
}

async function run(transport: Transport, faults: string[] = [], revision?: string): Promise<SuiteResult> {
  if (transport === 'stdio') {
    const args = [STDIO_SERVER, ...(revision ? ['--revision', revision] : []), ...faults]
    return runServerSuite({ kind: 'stdio', command: process.execPath, args }, OPTIONS)
  }
  const server = await startRuleHttp(faults, revision ? { revision } : {})
  try {
    return await runServerSuite({ kind: 'http', url: server.url, headers: {} }, OPTIONS)
  } finally {
    await server.close()
  }
}

const find = (suite: SuiteResult, id: string): CheckResult => {
  const found = suite.checks.find((c) => c.id === id)
  if (!found) throw new Error(`no check ${id}`)
  return found
}
const flagged = (suite: SuiteResult) => suite.checks.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).map((c) => `${c.id}: ${c.message}`)

interface Case {
  fault: string
  /** The checks that change, with their new status; `partial` when a fault's consequences cascade. */
  delta: Record<string, string>
  partial?: boolean
  /** What the message of the first check in `delta` must say. */
  message?: RegExp
  only?: Transport
}

const CASES: Case[] = [
  // The client side: a server may ask the client only for what it declared (nothing).
  { fault: 'ask-sampling', delta: { 'lifecycle/server-requests': 'fail' }, message: /sampling\/createMessage \(needs sampling\).*answered with -32601/ },
  { fault: 'ask-roots', delta: { 'lifecycle/server-requests': 'fail' }, message: /roots\/list \(needs roots\)/ },
  { fault: 'early-request', delta: { 'lifecycle/requests-before-initialized': 'warn' }, message: /^"fixture\/hello" arrived before notifications\/initialized$/ },
  // The envelope of every message.
  { fault: 'reuse-request-id', delta: { 'jsonrpc/request-ids': 'fail' }, message: /ping request reuses id "s1"/ },
  { fault: 'string-error-code', delta: { 'jsonrpc/error-responses': 'fail' }, message: /error code "-32602" is not an integer/ },
  { fault: 'result-and-error', delta: { 'jsonrpc/result-or-error': 'fail' }, message: /\(to tools\/call\) has both a result and an error/ },
  // A reply with a wrong id right after a notification is a wrong id, not an answer to the notification.
  { fault: 'wrong-id', delta: { 'jsonrpc/response-ids': 'fail' }, message: /^response id 987654 matches no request the kit sent$/ },
  { fault: 'duplicate-response', delta: { 'jsonrpc/response-ids': 'fail' }, message: /a second response to request 2 \(ping\)/ },
  { fault: 'answer-cancelled', delta: { 'jsonrpc/no-response-to-notifications': 'fail' }, message: /^response id "mcp-conformance-never-sent" (answers the request id named in|came back for) notifications\/cancelled/ },
  { fault: 'answer-initialized', delta: { 'jsonrpc/no-response-to-notifications': 'fail' }, message: /notifications\/initialized, which must get no response/, only: 'stdio' },
  { fault: 'answer-initialized', delta: { 'http/notification-accepted': 'fail', 'jsonrpc/no-response-to-notifications': 'fail' }, message: /got HTTP 200, not 202 Accepted/, only: 'http' },
  // Lifecycle.
  { fault: 'ping-extra', delta: { 'lifecycle/ping': 'fail' }, message: /must be empty but carries "alive"/ },
  // A ping error after the cancellation is named as such, never as "stopped answering".
  { fault: 'cancel-breaks-ping', delta: { 'lifecycle/cancel-unknown-request': 'warn' }, message: /^a ping right after it was answered with JSON-RPC error -32603/ },
  { fault: 'die-on-cancel', delta: { 'lifecycle/cancel-unknown-request': 'warn' }, partial: true, message: /^the server stopped answering: a ping right after it got no response: the server process exited/, only: 'stdio' },
  { fault: 'die-on-cancel', delta: { 'lifecycle/cancel-unknown-request': 'warn' }, partial: true, message: /^a ping right after it was answered with JSON-RPC error -32001 \(Session not found\)/, only: 'http' },
  // Capabilities used without being declared, and declared ones that do not work.
  { fault: 'serve-undeclared-tools', delta: { 'tools/undeclared': 'fail', 'tools/list': 'skip' }, partial: true, message: /tools\/list offered 5 items although the server does not declare the tools capability/ },
  { fault: 'completions-undeclared', delta: { 'completion/undeclared': 'fail', 'completion/complete': 'skip', 'prompts/get': 'skip' }, message: /offered 2 items although the server does not declare the completions capability/ },
  { fault: 'log-undeclared', delta: { 'lifecycle/server-notifications': 'fail', 'logging/set-level': 'skip' }, message: /notifications\/message without the logging capability/ },
  { fault: 'list-changed-undeclared', delta: { 'lifecycle/server-notifications': 'fail' }, message: /notifications\/tools\/list_changed without tools.listChanged/ },
  { fault: 'progress-unasked', delta: { 'lifecycle/server-notifications': 'fail' }, message: /notifications\/progress without a progressToken/ },
  { fault: 'subscribe-broken', delta: { 'resources/subscribe': 'fail' }, message: /-32601.*although the capability is declared/ },
  { fault: 'templates-broken', delta: { 'resources/templates-list': 'fail' }, message: /resourceTemplates\[0\] has no string "uriTemplate"/ },
  { fault: 'complete-broken', delta: { 'completion/complete': 'fail', 'prompts/get': 'skip' }, message: /holds something other than strings/ },
  { fault: 'prompt-broken', delta: { 'prompts/get': 'fail' }, message: /messages\[0\].role is not "user" or "assistant"/ },
  // `arguments` is optional in GetPromptRequest: refusing a request without it breaks the schema.
  { fault: 'prompt-needs-arguments', delta: { 'prompts/get': 'fail' }, message: /^getting "summary" without "arguments" \(none is required.*-32602.*the schema allows the request as sent/ },
  // Schemas: invalid only when they are.
  { fault: 'schema-invalid', delta: { 'tools/input-schema': 'fail' }, message: /"echo": invalid 2020-12 schema: breaks the 2020-12 meta-schema/ },
  { fault: 'schema-dangling-ref', delta: { 'tools/input-schema': 'fail' }, message: /\$ref "#\/\$defs\/missing" points at nothing in the document/ },
  // A SHOULD warns; the bridge's own needs never fail the server.
  { fault: 'duplicate-tool', delta: { 'tools/names-unique': 'warn', 'bridge/projection': 'warn' }, message: /listed more than once: "echo" ×2/ },
  // Streamable HTTP.
  { fault: 'origin-served', delta: { 'http/origin-rejected': 'fail' }, only: 'http', message: /served a request from Origin: http:\/\/evil.example/ },
  { fault: 'version-header-500', delta: { 'http/protocol-version-invalid': 'fail' }, only: 'http', message: /got HTTP 500, not 400 Bad Request/ },
  { fault: 'notification-body', delta: { 'http/notification-accepted': 'fail' }, only: 'http', message: /202, but with a body/ },
  { fault: 'get-404', delta: { 'http/get-stream': 'fail' }, only: 'http', message: /HTTP 404.*neither an event stream nor 405/ },
  { fault: 'get-405', delta: {}, only: 'http' },
  { fault: 'delete-400', delta: { 'http/session-delete': 'fail' }, only: 'http', message: /got HTTP 400; it must get 404/ },
  // 2025-11-25 has no batches: refusing one is information, like serving one.
  { fault: 'reject-batch', delta: {}, only: 'http' },
  { fault: 'no-priming', delta: { 'http/sse-priming': 'warn' }, only: 'http', message: /did not open with an event id and empty data: initialize, ping/ },
  // Polling (each stream closed after priming) without a retry field: the kit still resumes, and warns.
  { fault: 'polling-no-retry', delta: { 'http/sse-resumption': 'warn' }, only: 'http', message: /closed before the response without a retry field/ },
  // A correct server that simply has no completions: the made-up prompt argument it rejects is information.
  { fault: 'no-completions', delta: { 'prompts/get': 'skip', 'completion/undeclared': 'pass', 'completion/complete': 'skip' }, message: /^Information .*made-up "language" was refused with JSON-RPC error -32602/ },
]

const suites: SuiteResult[] = []

for (const transport of ['stdio', 'http'] as const) {
  describe(`the rule server over ${transport}`, () => {
    let control: SuiteResult
    beforeAll(async () => {
      control = await run(transport)
      suites.push(control)
    })

    it('obeys every rule: no fail, no warn, no error', () => {
      expect(flagged(control)).toEqual([])
    })

    it('heartbeats with ping, which the kit answers with {}; its schemas (draft-04, 2020-12, $refs) are valid; its validated prompt gets a completed value', () => {
      expect(find(control, 'lifecycle/server-requests').message).toBe('1 ping answered with {}')
      expect(find(control, 'tools/input-schema').message).toMatch(/^all 4 judged schemas are valid object schemas \(3 in 2020-12, 1 in draft-04\); 1 not judged \(\$ref "https:\/\/example.com\/schemas\/item.json" points into another document/)
      expect(find(control, 'prompts/get')).toMatchObject({ status: 'pass', message: 'getting "code_review" returned 1 message' })
      expect(find(control, 'completion/complete').status).toBe('pass')
      expect(find(control, 'resources/subscribe').status).toBe('pass')
      expect(find(control, 'resources/templates-list').status).toBe('pass')
    })

    const cases = CASES.filter((c) => !c.only || c.only === transport)
    it.each(cases.map((c) => [c.fault, c] as const))('%s', async (_, c) => {
      const variant = await run(transport, [c.fault])
      suites.push(variant)
      const changed = delta(control, variant)
      if (c.partial) expect(changed).toMatchObject(c.delta)
      else expect(changed).toEqual(c.delta)
      const first = Object.keys(c.delta)[0]
      if (c.message && first) expect(find(variant, first).message).toMatch(c.message)
      expect(variant.checks.filter((check) => check.status === 'error')).toEqual([])
    })
  })
}

describe('the 2025-11-25 polling model', () => {
  it('a server that closes every request stream after priming (with retry) is resumed with GET and Last-Event-ID, and gets no fail or warn', async () => {
    const server = await startRuleHttp([], { polling: true })
    try {
      const suite = await runServerSuite({ kind: 'http', url: server.url, headers: {} }, OPTIONS)
      suites.push(suite)
      expect(flagged(suite)).toEqual([])
      expect(find(suite, 'http/sse-resumption').message).toMatch(/^\d+ streams closed before their response; resumed with Last-Event-ID after the server's retry/)
      expect(find(suite, 'http/sse-priming').status).toBe('pass')
      // The heartbeat ping arrived on a resumed stream and was still answered.
      expect(find(suite, 'lifecycle/server-requests').message).toBe('1 ping answered with {}')
    } finally {
      await server.close()
    }
  })
})

describe('revision gating', () => {
  it('under 2025-03-26 a server MUST receive batches: refusing one fails, serving one passes', async () => {
    const server = await startRuleHttp([], { revision: '2025-03-26' })
    const refusing = await startRuleHttp(['reject-batch'], { revision: '2025-03-26' })
    try {
      const ok = await runServerSuite({ kind: 'http', url: server.url, headers: {} }, OPTIONS)
      const bad = await runServerSuite({ kind: 'http', url: refusing.url, headers: {} }, OPTIONS)
      suites.push(ok, bad)
      expect(find(ok, 'http/batch')).toMatchObject({ status: 'pass', spec: { keyword: 'MUST', url: expect.stringContaining('/2025-03-26/basic#batching') } })
      expect(find(bad, 'http/batch')).toMatchObject({ status: 'fail', message: 'a batch of two pings got HTTP 400' })
      expect(flagged(ok)).toEqual([])
      // Rules that arrived later are skipped, naming the revision.
      expect(find(ok, 'tools/names-valid').message).toBe('not part of the negotiated revision 2025-03-26: the rule arrived in 2025-11-25')
      expect(find(ok, 'http/protocol-version-invalid').status).toBe('skip')
    } finally {
      await server.close()
      await refusing.close()
    }
  })

  it('a run can ask for an older revision: the suite is named after it and judged by it', async () => {
    const suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [STDIO_SERVER] }, { ...OPTIONS, revision: '2025-06-18' })
    suites.push(suite)
    expect(suite.id).toBe('server@2025-06-18')
    expect(find(suite, 'lifecycle/protocol-version').message).toBe('the server agreed to the requested revision 2025-06-18')
    expect(find(suite, 'lifecycle/ping').spec?.ref).toBe('MCP 2025-06-18 ping: MUST')
    // No $schema means draft-07 before 2025-11-25; declared dialects stay what they declare.
    expect(find(suite, 'tools/input-schema').message).toMatch(/^all 4 judged schemas are valid object schemas \(2 in draft-07, 1 in draft-04, 1 in 2020-12\)/)
    expect(flagged(suite)).toEqual([])
  })

  it('under 2024-11-05 the stdio server is judged by that revision and its message page', async () => {
    const suite = await run('stdio', [], '2024-11-05')
    suites.push(suite)
    expect(flagged(suite)).toEqual([])
    expect(find(suite, 'jsonrpc/response-ids').spec?.url).toBe('https://modelcontextprotocol.io/specification/2024-11-05/basic/messages#responses')
    expect(find(suite, 'jsonrpc/no-response-to-notifications').spec?.quote).toBe('The Server MUST NOT reply to a Notification, including those that are within a batch request.')
  })
})

describe('severity follows the cited keyword', () => {
  afterAll(() => void (suites.length = 0))

  it('every fault the fixture knows has a case', () => {
    expect(Object.keys({ ...FAULTS, ...HTTP_FAULTS }).filter((f) => !CASES.some((c) => c.fault === f))).toEqual([])
  })

  it('across every run above: fail only for MUST/SCHEMA/DECLARED, warn only for SHOULD (or the bridge, or a documented softening), every verdict cited', () => {
    const checks = suites.flatMap((s) => s.checks)
    expect(checks.length).toBeGreaterThan(1_000)
    for (const check of checks) {
      const def = definitionOf(check.id)
      expect(def, check.id).toBeDefined()
      if (check.status === 'pass' || check.status === 'fail' || check.status === 'warn') expect(check.spec?.quote, check.id).toBeTruthy()
      if (check.status === 'fail' && !check.message.startsWith('Not testable:')) expect(['MUST', 'MUST NOT', 'SCHEMA', 'DECLARED'], `${check.id}: ${check.message}`).toContain(check.spec?.keyword)
      if (check.status === 'warn') {
        const allowed = ['SHOULD', 'SHOULD NOT'].includes(check.spec?.keyword ?? '') || def?.scope === 'bridge' || def?.note !== undefined
        expect(allowed, `${check.id}: ${check.message}`).toBe(true)
      }
      if (def?.scope === 'bridge') expect(check.status, check.id).not.toBe('fail')
    }
  })
})
