/**
 * Every rule the server checks enforce, against the rule server (test/fixtures/rule-server) over
 * stdio and Streamable HTTP. Obeying every rule, it gets no fail and no warn, although it
 * heartbeats with ping, uses draft-04 and 2020-12 schemas with $refs and validates its prompt
 * arguments. With one fault, exactly the checks of the broken rule change, to the status the
 * cited sentence's keyword gives.
 */
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { INFORMATION, judge } from '../src/server/check.ts'
import { judgeComplete, judgeGetPrompt, judgeRead, judgeSetLevel, judgeSubscribe, judgeTemplates } from '../src/server/evaluate/features.ts'
import { CHECKS, cite, definitionOf, ruleFor, type CheckDef, type Keyword, type Rule } from '../src/server/registry/index.ts'
import type { ServerSuite } from '../src/report/revisions.ts'
import { DEFAULT_SERVER_OPTIONS } from '../src/server/options.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { KNOWN_REVISIONS, type Revision } from '../src/server/spec.ts'
import type { RpcOutcome } from '../src/server/wire/types.ts'
import { FAULTS, HTTP_FAULTS, startRuleHttp } from './fixtures/rule-server/index.mjs'
import { delta } from './server-helpers.ts'
import { findCheck as find, flagged } from './support/find-check.ts'

type Transport = 'stdio' | 'http'
const STDIO_SERVER = fileURLToPath(new URL('./fixtures/rule-server/stdio.mjs', import.meta.url))
const OPTIONS: Partial<ServerRunOptions> = {
  calls: [
    { name: 'echo', arguments: { text: 'hi' } },
    { name: 'structured', arguments: {} },
  ],
  // The kit's own bounds (DEFAULT_SERVER_OPTIONS) for a request and for the exit after stdin
  // closes: no case here waits one out, and tighter ones turned a slow answer on a loaded machine
  // into a changed verdict (tools/list failed, exit-on-stdin-close skipped).
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


interface Case {
  fault: string
  /** The checks that change, with their new status; `partial` when a fault's consequences cascade. */
  delta: Record<string, string>
  partial?: boolean
  /** What the message of the first check in `delta` must say. */
  message?: RegExp
  /** The keyword the first check in `delta` must cite. */
  keyword?: string
  only?: Transport
}

const CASES: Case[] = [
  // The client side: a server may ask the client only for what it declared (nothing).
  { fault: 'ask-sampling', delta: { 'lifecycle/server-requests': 'fail' }, message: /sampling\/createMessage \(needs sampling\).*answered with -32601/ },
  { fault: 'ask-roots', delta: { 'lifecycle/server-requests': 'fail' }, message: /roots\/list \(needs roots\)/ },
  { fault: 'early-request', delta: { 'lifecycle/requests-before-initialized': 'warn' }, message: /^"fixture\/hello" arrived before notifications\/initialized$/ },
  // The envelope of every message.
  { fault: 'reuse-request-id', delta: { 'jsonrpc/request-ids': 'fail' }, message: /ping request reuses id "s1"/ },
  { fault: 'string-error-code', delta: { 'jsonrpc/error-responses': 'fail', 'logging/invalid-level': 'skip', 'prompts/missing-argument': 'skip' }, message: /error code "-32602" is not an integer/ },
  // Such an answer answers nothing: the unknown-tool check is not testable and names the envelope check, once.
  { fault: 'result-and-error', delta: { 'jsonrpc/result-or-error': 'fail', 'tools/call-unknown-tool': 'skip' }, message: /\(to tools\/call\) has both a result and an error/ },
  // A reply with a wrong id right after a notification is a wrong id, not an answer to the notification.
  { fault: 'wrong-id', delta: { 'jsonrpc/response-ids': 'fail' }, message: /^response id 987654 matches no request the kit sent \(and 1 more\)$/ },
  { fault: 'duplicate-response', delta: { 'jsonrpc/response-ids': 'fail' }, message: /a second response to request 2 \(ping\)/ },
  { fault: 'answer-cancelled', delta: { 'jsonrpc/no-response-to-notifications': 'fail' }, message: /^response id "mcp-conformance-never-sent" (answers the request id named in|came back for) notifications\/cancelled/ },
  { fault: 'answer-initialized', delta: { 'jsonrpc/no-response-to-notifications': 'fail' }, message: /notifications\/initialized, which must get no response/, only: 'stdio' },
  { fault: 'answer-initialized', delta: { 'http/notification-accepted': 'fail', 'jsonrpc/no-response-to-notifications': 'fail' }, message: /got HTTP 200, not 202 Accepted/, only: 'http' },
  // Lifecycle.
  { fault: 'ping-extra', delta: { 'lifecycle/ping': 'fail' }, message: /must be empty but carries "alive"/ },
  // A level it cannot know: it SHOULD answer -32602, so anything else warns.
  { fault: 'level-accepted', delta: { 'logging/invalid-level': 'warn' }, message: /^logging\/setLevel "mcp-conformance-no-such-level" got a result \(\{\}\), not JSON-RPC error -32602 \(Invalid params\)$/, keyword: 'SHOULD' },
  // A ping error after the cancellation is named as such, never as "stopped answering".
  { fault: 'cancel-breaks-ping', delta: { 'lifecycle/cancel-unknown-request': 'warn', 'lifecycle/cancel-malformed': 'skip' }, message: /^a ping right after it was answered with JSON-RPC error -32603/ },
  { fault: 'die-on-cancel', delta: { 'lifecycle/cancel-unknown-request': 'warn' }, partial: true, message: /^the server stopped answering: a ping right after it got no response: the server process exited/, only: 'stdio' },
  { fault: 'die-on-cancel', delta: { 'lifecycle/cancel-unknown-request': 'warn' }, partial: true, message: /^a ping right after it was answered with JSON-RPC error -32001 \(Session not found\)/, only: 'http' },
  // Capabilities used without being declared, and declared ones that do not work.
  { fault: 'serve-undeclared-tools', delta: { 'tools/undeclared': 'fail', 'tools/list': 'skip' }, partial: true, message: /tools\/list offered 5 items although the server does not declare the tools capability/ },
  { fault: 'completions-undeclared', delta: { 'completion/undeclared': 'fail', 'completion/complete': 'skip', 'prompts/get': 'skip' }, message: /offered 2 items although the server does not declare the completions capability/ },
  { fault: 'log-undeclared', delta: { 'lifecycle/server-notifications': 'fail', 'logging/set-level': 'skip', 'logging/invalid-level': 'skip' }, message: /notifications\/message without the logging capability/ },
  { fault: 'list-changed-undeclared', delta: { 'lifecycle/server-notifications': 'fail' }, message: /notifications\/tools\/list_changed without tools.listChanged/ },
  { fault: 'progress-unasked', delta: { 'lifecycle/server-notifications': 'fail' }, message: /notifications\/progress without a progressToken/ },
  // Without a subscription there is no update to judge.
  // The declaration states no keyword ("Client and server capabilities establish which optional protocol features will be available"): an error from a declared method is information.
  { fault: 'subscribe-broken', delta: { 'resources/subscribe': 'skip', 'notifications/resources-updated': 'skip' }, message: /^Information .*-32601.*although the capability is declared/, keyword: 'NONE' },
  // Result shapes: the SDK's schemas as the negotiated revision defines them; the message names the path and the value.
  { fault: 'templates-broken', delta: { 'resources/templates-list': 'fail' }, message: /ListResourceTemplatesResult schema: resourceTemplates\[0\]\.uriTemplate: missing, in \{"name":"item"\}/ },
  { fault: 'complete-broken', delta: { 'completion/complete': 'fail', 'prompts/get': 'skip' }, message: /CompleteResult schema: completion\.values\[0\]: expected string, got 0/ },
  { fault: 'prompt-broken', delta: { 'prompts/get': 'fail' }, message: /GetPromptResult schema: messages\[0\]\.role: expected one of "user"\|"assistant", got "robot"/ },
  { fault: 'read-broken', delta: { 'resources/read': 'fail' }, message: /ReadResourceResult schema: contents\[0\]: matches no allowed form \(text missing; or blob missing\)/ },
  // The SDK defaults content to []; every revision's schema requires it.
  { fault: 'call-no-content', delta: { 'tools/call/echo': 'fail' }, message: /^the result breaks the 2025-11-25 CallToolResult schema: content: missing, in \{"echoed":"hi"\}$/ },
  // A tool's fields are reported by the check about them, once.
  { fault: 'annotation-invalid', delta: { 'tools/annotations': 'fail' }, message: /^"legacy": annotations\.readOnlyHint: expected boolean, got "yes"$/ },
  { fault: 'title-invalid', delta: { 'tools/annotations': 'fail' }, message: /^"echo": title: expected string, got 42$/ },
  // resource_link is a content type of 2025-06-18 on: valid here (see the revision gating below).
  { fault: 'resource-link-everywhere', delta: {} },
  // Notification payloads, every one the server sends, each against the SDK's schema for it.
  { fault: 'message-invalid', delta: { 'notifications/message': 'fail' }, message: /^the notifications\/message notification breaks the 2025-11-25 LoggingMessageNotification schema: params\.level: expected one of .*got "loud"/ },
  { fault: 'progress-invalid', delta: { 'notifications/progress': 'fail' }, message: /^2 of 2 notifications\/progress notifications break the 2025-11-25 ProgressNotification schema: params\.progress: expected number, got "half"/ },
  { fault: 'cancelled-invalid', delta: { 'notifications/cancelled': 'fail' }, message: /CancelledNotification schema: params\.reason: expected string, got 42/ },
  { fault: 'cancelled-unknown', delta: { 'notifications/cancelled': 'fail' }, message: /^notifications\/cancelled names "never-sent", which is no request the server sent$/ },
  { fault: 'updated-invalid', delta: { 'notifications/resources-updated': 'fail' }, message: /ResourceUpdatedNotification schema: params\.uri: missing/ },
  { fault: 'tools-list-changed-invalid', delta: { 'notifications/tools-list-changed': 'fail' }, message: /ToolListChangedNotification schema: params: expected object, got "changed"/ },
  { fault: 'prompts-list-changed-invalid', delta: { 'notifications/prompts-list-changed': 'fail' }, message: /PromptListChangedNotification schema: params: expected object, got "changed"/ },
  { fault: 'resources-list-changed-invalid', delta: { 'notifications/resources-list-changed': 'fail' }, message: /ResourceListChangedNotification schema: params: expected object, got "changed"/ },
  { fault: 'task-status-invalid', delta: { 'notifications/other': 'fail' }, message: /^notifications\/tasks\/status breaks the 2025-11-25 TaskStatusNotification schema: params\.status: expected one of .*got "sleeping"/ },
  // Refusing an unsupported revision with an error instead of a counter-offer: the spec's own example, so a warning.
  { fault: 'refuse-old', delta: { 'lifecycle/unsupported-version': 'warn' }, message: /refused with JSON-RPC error -32602/ },
  // A listed prompt that needs no argument, refused without "arguments": the declared capability fails (GetPromptRequest binds the client, not the server).
  { fault: 'prompt-needs-arguments', delta: { 'prompts/get': 'skip' }, message: /^Information .*getting "summary" without "arguments" \(the prompt lists none as required\) was refused with JSON-RPC error -32602.*: the server declared prompts/, keyword: 'NONE' },
  // Schemas: invalid only when they are.
  { fault: 'schema-invalid', delta: { 'tools/input-schema': 'fail' }, message: /"echo": invalid 2020-12 schema: breaks the 2020-12 meta-schema/ },
  { fault: 'schema-draft-04', delta: { 'tools/input-schema': 'warn' }, message: /^1 inputSchema of 5 declares a dialect other than 2020-12: "legacy": draft-04$/ },
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
  // Its resumptions replay only their own streams' messages: the replay check now has something to pass.
  { fault: 'polling-no-retry', delta: { 'http/sse-resumption': 'warn', 'http/replay-own-stream': 'pass' }, only: 'http', message: /closed before the response without a retry field/ },
  // Each stream left open after its response: the kit reads on for its request timeout, then warns.
  { fault: 'event-id-reused', delta: { 'http/sse-event-ids': 'fail' }, only: 'http', message: /^an event id of one request's stream came again on another request's stream \d+ times; first "0", on the streams of initialize \(request 1\) and of ping \(request 2\)$/ },
  { fault: 'get-response', delta: { 'http/get-stream-no-response': 'fail' }, only: 'http', message: /^the GET stream carried \d+ JSON-RPC responses \(id \d+, \d+, \d+/ },
  { fault: 'get-notify', delta: { 'http/get-stream-no-response': 'pass' }, only: 'http' },
  // The copies are requests, not responses: the GET stream now carries something, and no response.
  { fault: 'broadcast', delta: { 'http/no-broadcast': 'fail', 'http/get-stream-no-response': 'pass' }, only: 'http', message: /^\d+ server messages sent on two streams: ping request id "s\d+", first on the stream of tools\/list \(request \d+\), again on the session’s GET stream/ },
  // What it replays is also, seen from the kit, a ping id used again, responses to no pending request and
  // progress for a request that ended: the envelope and notification checks report those under their own sentences.
  {
    fault: 'replay-foreign',
    delta: {
      'http/replay-own-stream': 'fail',
      'http/sse-resumption': 'pass',
      'jsonrpc/request-ids': 'fail',
      'jsonrpc/response-ids': 'fail',
      'lifecycle/server-notifications': 'fail',
      'notifications/progress': 'fail',
    }, only: 'http', message: /^\d+ messages of another stream replayed on a resumption: the response to initialize \(request 1\), first on the stream of initialize \(request 1\), again on ping \(request 2\)/ },
  { fault: 'stream-open', delta: { 'http/sse-end': 'warn' }, only: 'http', message: new RegExp(`^the event stream of initialize, ping, .* was still open ${DEFAULT_SERVER_OPTIONS.requestTimeoutMs} ms after the response it carried \\(\\d+ of \\d+ streams\\)$`) },
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

    it('heartbeats with ping, which the kit answers with {}; its schemas (2020-12, $refs; draft-04 only before 2025-11-25, which recommends 2020-12) are valid; its validated prompt gets a completed value', () => {
      expect(find(control, 'lifecycle/server-requests').message).toBe('2 pings answered with {}')
      expect(find(control, 'tools/input-schema').message).toMatch(/^all 4 judged schemas are valid object schemas \(4 in 2020-12\); 1 not judged \(\$ref "https:\/\/example.com\/schemas\/item.json" points into another document/)
      expect(find(control, 'prompts/get')).toMatchObject({ status: 'pass', message: 'getting "code_review" returned 1 message' })
      expect(find(control, 'completion/complete').status).toBe('pass')
      expect(find(control, 'resources/subscribe').status).toBe('pass')
      expect(find(control, 'resources/templates-list').status).toBe('pass')
    })

    it('sends every kind of notification a server may send the kit, each payload valid (a cancelled heartbeat, progress for a call that asked for it, an update after subscribing)', () => {
      const notifications = control.checks.filter((c) => c.id.startsWith('notifications/') && c.id !== 'notifications/other')
      expect(notifications.map((c) => [c.id, c.status])).toEqual(notifications.map((c) => [c.id, 'pass']))
      expect(notifications).toHaveLength(7)
      expect(find(control, 'notifications/progress').message).toBe('2 notifications/progress notifications, each a valid ProgressNotification')
      expect(find(control, 'notifications/other').status).toBe('skip')
    })

    const cases = CASES.filter((c) => !c.only || c.only === transport)
    // Each case is a run of its own against a server of its own: they run side by side (vitest's maxConcurrency).
    it.concurrent.each(cases.map((c) => [c.fault, c] as const))('%s', async (_, c) => {
      const variant = await run(transport, [c.fault])
      suites.push(variant)
      const changed = delta(control, variant)
      if (c.partial) expect(changed).toMatchObject(c.delta)
      else expect(changed).toEqual(c.delta)
      const first = Object.keys(c.delta)[0]
      if (c.message && first) expect(find(variant, first).message).toMatch(c.message)
      if (c.keyword && first) expect(find(variant, first).spec?.keyword).toBe(c.keyword)
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
      // Each resumption brought its own stream's events only, and each heartbeat came on one stream.
      expect(find(suite, 'http/replay-own-stream').message).toMatch(/^\d+ resumptions of request streams, none replaying another stream’s messages$/)
      expect(find(suite, 'http/no-broadcast')).toMatchObject({ status: 'pass', message: '2 server requests, each on one stream only (the GET stream repeated none)' })
      // The heartbeat pings arrived on a resumed stream and were still answered.
      expect(find(suite, 'lifecycle/server-requests').message).toBe('2 pings answered with {}')
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
    // The page's opening paragraph states it, before any heading: the page itself, no anchor.
    expect(find(suite, 'jsonrpc/version').spec).toMatchObject({ url: 'https://modelcontextprotocol.io/specification/2024-11-05/basic/messages', quote: 'All messages in MCP MUST follow the JSON-RPC 2.0 specification.' })
    expect(find(suite, 'jsonrpc/no-response-to-notifications').spec?.quote).toBe('The Server MUST NOT reply to a Notification, including those that are within a batch request.')
  })
})

describe.concurrent('sentences that changed force between revisions', () => {
  it('using a capability that was not negotiated: a SHOULD (warn) under 2025-03-26, a MUST (fail) from 2025-06-18', async () => {
    const [older, newer] = await Promise.all([pinned('stdio', '2025-03-26', ['ask-sampling']), pinned('stdio', '2025-06-18', ['ask-sampling'])])
    suites.push(older, newer)
    expect(find(older, 'lifecycle/server-requests')).toMatchObject({
      status: 'warn',
      spec: { keyword: 'SHOULD', quote: 'Both parties SHOULD: Respect the negotiated protocol version; Only use capabilities that were successfully negotiated', url: 'https://modelcontextprotocol.io/specification/2025-03-26/basic/lifecycle#operation' },
    })
    expect(find(newer, 'lifecycle/server-requests')).toMatchObject({ status: 'fail', spec: { keyword: 'MUST', quote: 'Both parties MUST: Respect the negotiated protocol version; Only use capabilities that were successfully negotiated' } })
  })

  it('a notification of an undeclared capability: a SHOULD under 2025-03-26, but logging stays a MUST in every revision', async () => {
    const [listChanged, log] = await Promise.all([pinned('stdio', '2025-03-26', ['list-changed-undeclared']), pinned('stdio', '2025-03-26', ['log-undeclared'])])
    suites.push(listChanged, log)
    expect(find(listChanged, 'lifecycle/server-notifications')).toMatchObject({ status: 'warn', spec: { keyword: 'SHOULD' } })
    expect(find(log, 'lifecycle/server-notifications')).toMatchObject({ status: 'fail', spec: { keyword: 'MUST', quote: 'Servers that emit log message notifications MUST declare the logging capability' } })
  })

  it('an inputSchema invalid in its dialect: information before 2025-11-25 (no sentence requires a valid schema, no default dialect), a MUST from 2025-11-25', async () => {
    const [older, newer] = await Promise.all([pinned('stdio', '2025-06-18', ['schema-invalid']), pinned('stdio', '2025-11-25', ['schema-invalid'])])
    suites.push(older, newer)
    expect(find(older, 'tools/input-schema')).toMatchObject({
      status: 'skip',
      message: expect.stringMatching(/^Information .*"echo": invalid draft-07 schema/),
      spec: { keyword: 'NONE', quote: 'inputSchema: JSON Schema defining expected parameters', url: 'https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool' },
    })
    expect(flagged(older)).toEqual([])
    expect(find(newer, 'tools/input-schema')).toMatchObject({ status: 'fail', spec: { keyword: 'MUST', quote: 'Schemas MUST be valid according to their declared or default dialect' } })
  })
})

/** A run the kit pins to `revision` (--spec-version), against the rule server with `faults` (and a forced counter-offer). */
async function pinned(transport: Transport, revision: Revision, faults: string[] = [], offers?: string): Promise<SuiteResult> {
  if (transport === 'stdio') {
    const args = [STDIO_SERVER, ...(offers ? ['--revision', offers] : []), ...faults]
    return runServerSuite({ kind: 'stdio', command: process.execPath, args }, { ...OPTIONS, revision })
  }
  const server = await startRuleHttp(faults, offers ? { revision: offers } : {})
  try {
    return await runServerSuite({ kind: 'http', url: server.url, headers: {} }, { ...OPTIONS, revision })
  } finally {
    await server.close()
  }
}

for (const transport of ['stdio', 'http'] as const) {
  describe.concurrent(`result shapes by revision over ${transport}`, () => {
    it('a field the negotiated revision does not define is never judged: a numeric tool title fails under 2025-06-18, and is left alone under 2025-03-26', async () => {
      const [newer, older] = await Promise.all([pinned(transport, '2025-06-18', ['title-invalid']), pinned(transport, '2025-03-26', ['title-invalid'])])
      suites.push(newer, older)
      expect(find(newer, 'tools/annotations')).toMatchObject({ status: 'fail', message: '"echo": title: expected string, got 42' })
      expect(find(older, 'tools/annotations')).toMatchObject({ status: 'pass', message: '1 annotated tool, all fields well-typed' })
      expect(flagged(older)).toEqual([])
      // What the older revision does not define is named in the evidence, unjudged.
      expect((find(older, 'tools/list').details as { notInRevision: string[] }).notInRevision).toEqual(['tools[0].title', 'tools[2].icons', 'tools[4].outputSchema'])
    })

    it('a content type the negotiated revision does not define is a schema violation of that revision: resource_link fails under 2025-03-26 only', async () => {
      const [older, newer] = await Promise.all([pinned(transport, '2025-03-26', ['resource-link-everywhere']), pinned(transport, '2025-06-18', ['resource-link-everywhere'])])
      suites.push(older, newer)
      expect(find(older, 'tools/call/echo')).toMatchObject({
        status: 'fail',
        message: 'the result breaks the 2025-03-26 CallToolResult schema: content[1].type: "resource_link" is not a content type of 2025-03-26 (it arrived in 2025-06-18)',
        spec: { keyword: 'SCHEMA', quote: 'CallToolResult { content: (TextContent | ImageContent | AudioContent | EmbeddedResource)[]; isError?: boolean }' },
      })
      expect(flagged(older)).toHaveLength(1)
      expect(flagged(newer)).toEqual([])
    })

    it('notification payloads are judged by the negotiated revision too: under 2025-06-18 a cancellation needs its requestId', async () => {
      const suite = await pinned(transport, '2025-06-18', ['message-invalid'])
      suites.push(suite)
      expect(find(suite, 'notifications/message')).toMatchObject({ status: 'fail', spec: { ref: 'MCP 2025-06-18 schema: SCHEMA' } })
      expect(find(suite, 'notifications/cancelled').status).toBe('pass')
      expect(find(suite, 'notifications/other').status).toBe('skip')
    })
  })
}

describe.concurrent('a run pinned to one revision (--spec-version)', () => {
  it('a server that counter-offers another revision: version negotiation passes, and the kit, a client of the requested revision only, disconnects', async () => {
    const suite = (await pinned('stdio', '2025-03-26', [], '2025-11-25')) as ServerSuite
    suites.push(suite)
    expect(suite.id).toBe('server@2025-03-26')
    expect(suite.revision).toEqual({ requested: '2025-03-26', negotiated: '2025-11-25', supported: false })
    expect(find(suite, 'lifecycle/protocol-version').message).toBe(
      'the server does not speak 2025-03-26 and counter-offered 2025-11-25; the kit, asked to judge 2025-03-26 only, disconnects, so no other check runs for 2025-03-26',
    )
    expect(flagged(suite)).toEqual([])
    expect(suite.checks.map((c) => c.id)).toEqual(['lifecycle/initialize', 'lifecycle/protocol-version', 'lifecycle/server-info', 'lifecycle/capabilities', 'stdio/stdout-only-jsonrpc', 'stdio/utf8', 'stdio/exit-on-stdin-close', 'stdio/no-orphans'])
  })

  it('a server that refuses an older revision with an error instead of a counter-offer fails version negotiation (MUST respond with another protocol version it supports), not a harness error', async () => {
    const suite = (await pinned('http', '2025-06-18', ['refuse-old'])) as ServerSuite
    suites.push(suite)
    expect(suite.revision).toEqual({ requested: '2025-06-18', supported: false })
    expect(find(suite, 'lifecycle/protocol-version')).toMatchObject({ status: 'fail', message: expect.stringMatching(/^the server refused initialize for 2025-06-18 with JSON-RPC error -32602 \(Unsupported protocol version: 2025-06-18\) instead of offering a revision it supports/) })
    expect(find(suite, 'lifecycle/initialize').status).toBe('skip')
    expect(suite.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id)).toEqual(['lifecycle/protocol-version'])
  })

  it('a server that takes the revision is judged by it in full', async () => {
    const suite = (await pinned('http', '2025-03-26')) as ServerSuite
    suites.push(suite)
    expect(suite.revision).toEqual({ requested: '2025-03-26', negotiated: '2025-03-26', supported: true })
    expect(flagged(suite)).toEqual([])
    expect(find(suite, 'notifications/progress').spec?.quote).toBe('ProgressNotification { method: "notifications/progress"; params: { progressToken: ProgressToken; progress: number; total?: number; message?: string } }')
  })
})

describe('severity follows the cited keyword', () => {
  afterAll(() => void (suites.length = 0))

  it('every fault the fixture knows has a case', () => {
    expect(Object.keys({ ...FAULTS, ...HTTP_FAULTS }).filter((f) => !CASES.some((c) => c.fault === f))).toEqual([])
  })

  it('across every run above: fail only for MUST/SCHEMA, warn only for SHOULD (or the bridge, or a documented softening), every verdict cited, every "Not testable" pointing at a failure', () => {
    const checks = suites.flatMap((s) => s.checks)
    expect(checks.length).toBeGreaterThan(1_000)
    for (const check of checks) {
      const def = definitionOf(check.id)
      expect(def, check.id).toBeDefined()
      if (check.status === 'pass' || check.status === 'fail' || check.status === 'warn') expect(check.spec?.quote, check.id).toBeTruthy()
      // "Not testable" included: a check never fails above its own keyword.
      if (check.status === 'fail') expect(['MUST', 'MUST NOT', 'SCHEMA'], `${check.id}: ${check.message}`).toContain(check.spec?.keyword)
      // A "Not testable" skip names a check that reports the failure in the same run.
      if (check.status === 'skip' && check.message.startsWith('Not testable:')) {
        const carrier = /; (\S+) reports the failure$/.exec(check.message)?.[1]
        const suite = suites.find((s) => s.checks.includes(check))
        expect(['fail', 'warn'], `${check.id}: ${check.message}`).toContain(suite?.checks.find((c) => c.id === carrier)?.status)
      }
      if (check.status === 'warn') {
        const allowed = ['SHOULD', 'SHOULD NOT'].includes(check.spec?.keyword ?? '') || def?.scope === 'bridge' || def?.note !== undefined
        expect(allowed, `${check.id}: ${check.message}`).toBe(true)
      }
      if (def?.scope === 'bridge') expect(check.status, check.id).not.toBe('fail')
    }
  })
})

/** The strongest RFC 2119 keyword a sentence states (uppercase, as the spec writes them), or NONE. */
function strongestKeyword(quote: string): 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'NONE' {
  const has = (pattern: RegExp) => pattern.test(quote)
  if (has(/\b(MUST NOT|SHALL NOT)\b/) && !has(/\b(MUST|SHALL|REQUIRED)\b(?! NOT)/)) return 'MUST NOT'
  if (has(/\b(MUST|SHALL|REQUIRED|MUST NOT|SHALL NOT)\b/)) return 'MUST'
  if (has(/\bSHOULD NOT\b/) && !has(/\b(SHOULD|RECOMMENDED)\b(?! NOT)/)) return 'SHOULD NOT'
  if (has(/\b(SHOULD|RECOMMENDED|SHOULD NOT|NOT RECOMMENDED)\b/)) return 'SHOULD'
  if (has(/\b(MAY|OPTIONAL)\b/)) return 'MAY'
  return 'NONE'
}

/** The recorded keyword each strongest keyword allows: MAY and no keyword are both information. */
const RECORDED: Record<ReturnType<typeof strongestKeyword>, Keyword[]> = {
  MUST: ['MUST', 'MUST NOT'],
  'MUST NOT': ['MUST NOT'],
  SHOULD: ['SHOULD', 'SHOULD NOT'],
  'SHOULD NOT': ['SHOULD NOT'],
  MAY: ['NONE'],
  NONE: ['NONE'],
}

/**
 * Deliberate exceptions, each a sentence whose keyword binds someone other than the server the
 * check judges, so the kit reports what it sees as information. Each entry must still match a rule
 * whose keyword disagrees with its sentence (a stale entry fails the test).
 */
const KEYWORD_EXCEPTIONS: Array<{ id: string; case?: string; from: Revision; why: string }> = [
  { id: 'tools/task-support', case: 'no-capability', from: '2025-11-25', why: 'the MUST NOT binds clients ("clients MUST NOT attempt to use task augmentation"); a server listing such tools breaks nothing' },
  { id: 'stdio/exit-on-stdin-close', from: '2024-11-05', why: 'the SHOULD binds the client ("the client SHOULD initiate shutdown by"); no sentence obliges the server to exit' },
  { id: 'stdio/no-orphans', from: '2024-11-05', why: 'the same shutdown SHOULD of the client; no sentence obliges the server to end its processes' },
  { id: 'http/session-unknown', from: '2025-03-26', why: 'the MUST covers sessions the server terminated; the check sends an id the server never issued (its note says so)' },
  { id: 'http/batch', from: '2025-06-18', why: 'from 2025-06-18 the MUST binds the client ("The body of the POST request MUST be a single JSON-RPC request"); a server receiving a batch anyway is information' },
]

describe('every rule’s keyword is the strongest keyword of its sentence', () => {
  // SCHEMA quotes a type of the revision's schema.ts, which states no RFC 2119 keyword (the spec
  // makes the schema the source of truth); BRIDGE quotes the plugin's design, not the spec.
  const byCategory = (rule: Rule) => rule.keyword === 'SCHEMA' || rule.keyword === 'BRIDGE'
  const excepted = (def: CheckDef, rule: Rule) => KEYWORD_EXCEPTIONS.find((e) => e.id === def.id && e.case === rule.case && e.from === rule.from)

  it('for every rule in the registry (MUST/SHALL/REQUIRED → MUST, SHOULD/RECOMMENDED → SHOULD, MAY/OPTIONAL or none → NONE), bar the commented exceptions', () => {
    const wrong: string[] = []
    for (const def of CHECKS) {
      for (const rule of def.rules) {
        if (byCategory(rule) || excepted(def, rule)) continue
        const strongest = strongestKeyword(rule.quote)
        if (!RECORDED[strongest].includes(rule.keyword)) wrong.push(`${def.id}${rule.case ? ` [${rule.case}]` : ''} @${rule.from}: recorded ${rule.keyword}, the sentence says ${strongest}: "${rule.quote}"`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('SCHEMA cites the schema and BRIDGE the bridge; every exception still names a rule whose keyword its sentence does not give', () => {
    for (const def of CHECKS) {
      for (const rule of def.rules) {
        if (rule.keyword === 'SCHEMA') expect(rule.topic, def.id).toBe('schema')
        if (rule.keyword === 'BRIDGE') expect(rule.topic, def.id).toBe('bridge')
      }
    }
    for (const exception of KEYWORD_EXCEPTIONS) {
      const rule = CHECKS.find((def) => def.id === exception.id)?.rules.find((r) => r.case === exception.case && r.from === exception.from)
      expect(rule, exception.id).toBeDefined()
      expect(RECORDED[strongestKeyword(rule!.quote)], exception.id).not.toContain(rule!.keyword)
    }
  })

  it('reads keywords as RFC 2119 does', () => {
    expect(strongestKeyword('The server MAY terminate the session at any time, after which it MUST respond with HTTP 404 Not Found.')).toBe('MUST')
    expect(strongestKeyword('The receiver MUST NOT send a response.')).toBe('MUST NOT')
    expect(strongestKeyword('Either the result member or error member MUST be included, but both members MUST NOT be included.')).toBe('MUST')
    expect(strongestKeyword('jsonrpc: A String. This member is REQUIRED.')).toBe('MUST')
    expect(strongestKeyword('Servers SHOULD return standard JSON-RPC errors')).toBe('SHOULD')
    expect(strongestKeyword('The server SHOULD NOT send requests')).toBe('SHOULD NOT')
    expect(strongestKeyword('clients MAY invoke the tool as a task')).toBe('MAY')
    expect(strongestKeyword('Client and server capabilities establish which optional protocol features will be available during the session.')).toBe('NONE')
    // Lowercase words are not keywords.
    expect(strongestKeyword('values: string[] (Must not exceed 100 items.)')).toBe('NONE')
  })
})

/**
 * Cases that have no sentence in some revision in which their check runs. Each was reviewed: a
 * breach of such a case is information citing nothing (never the main sentence's keyword), and
 * the evaluators do not report these cases in these revisions anyway.
 */
const CASES_WITHOUT_A_SENTENCE = [
  // judgeOther validates only the notifications the revision defines, which start in 2025-11-25.
  'notifications/other [shape] @2025-06-18',
  'notifications/other [shape] @2025-03-26',
  'notifications/other [shape] @2024-11-05',
  // judgeUserCall judges task-only tools from 2025-11-25 on (execution arrived then).
  'tools/call/{name} [task-only] @2025-06-18',
  'tools/call/{name} [task-only] @2025-03-26',
  'tools/call/{name} [task-only] @2024-11-05',
  // judgeUserCall looks for embedded resources only from 2025-06-18, where the tools page asks for the resources capability.
  'tools/call/{name} [embedded] @2025-03-26',
  'tools/call/{name} [embedded] @2024-11-05',
  // judgeResumption passes "unanswered" only when its rule is in force; in 2025-11-25 the main sentence is the same requirement.
  'http/sse-resumption [unanswered] @2025-11-25',
  // judgeSchemas reports a dialect other than 2020-12 only from 2025-11-25 on, the first revision to recommend 2020-12.
  'tools/input-schema [recommended] @2025-06-18',
  'tools/input-schema [recommended] @2025-03-26',
  'tools/input-schema [recommended] @2024-11-05',
  'tools/output-schema [recommended] @2025-06-18',
]

/** Every case the evaluators pass to a breach, by check (keep in step with evaluate/*.ts). */
const CASES_REPORTED: Record<string, string[]> = {
  'lifecycle/initialize': ['shape', 'reply'],
  'lifecycle/unsupported-version': ['reply'],
  'tools/list': ['reply'],
  'resources/list': ['reply'],
  'prompts/list': ['reply'],
  'tools/undeclared': ['reply'],
  'resources/undeclared': ['reply'],
  'prompts/undeclared': ['reply'],
  'completion/undeclared': ['reply'],
  'tools/call-unknown-tool': ['reply'],
  'tools/call-invalid-arguments': ['reply'],
  'resources/templates-list': ['reply', 'shape'],
  'resources/subscribe': ['reply', 'shape'],
  'logging/set-level': ['reply', 'shape'],
  'lifecycle/ping': ['reply'],
  'lifecycle/server-notifications': ['logging', 'progress'],
  'notifications/progress': ['increase'],
  'notifications/cancelled': ['request-id'],
  'notifications/other': ['shape'],
  'tools/input-schema': ['object', 'dialect', 'recommended'],
  'tools/output-schema': ['object', 'dialect', 'recommended'],
  'tools/descriptions': ['missing'],
  'tools/task-support': ['no-capability'],
  'tools/call/{name}': ['task-only', 'reply', 'protocol-error', 'embedded'],
  'tools/call/{name}/structured-content': ['text-block'],
  'resources/read': ['reply', 'shape', 'not-found'],
  'prompts/get': ['reply', 'shape', 'invalid-params'],
  'completion/complete': ['reply', 'shape', 'invalid-params'],
  'http/sse-resumption': ['unanswered', 'retry'],
  'http/session-delete': ['refused'],
}

describe('a case with no sentence in the negotiated revision is information, never the main sentence’s keyword', () => {
  const def: CheckDef = {
    id: 'test/cases',
    title: 'a check with a case that arrives later',
    scope: 'server',
    how: 'none',
    rules: [
      { from: '2024-11-05', topic: 'schema', keyword: 'SCHEMA', quote: 'Main { field: string }' },
      { from: '2025-11-25', topic: 'base#json-schema-usage', keyword: 'MUST', quote: 'Later MUST hold.', case: 'later' },
    ],
  }

  it('judges the case by its own sentence where it has one, and reports information citing nothing where it has none', () => {
    expect(judge(def, '2025-11-25').breach('broken', {}, 'later')).toMatchObject({ status: 'fail', spec: { keyword: 'MUST', quote: 'Later MUST hold.' } })
    const before = judge(def, '2025-06-18').breach('broken', {}, 'later')
    expect(before).toMatchObject({ status: 'skip', message: `${INFORMATION}broken (no sentence of 2025-06-18 governs this case)` })
    expect(before.spec).toBeUndefined()
    // The main sentence still governs a breach without a case.
    expect(judge(def, '2025-06-18').breach('broken')).toMatchObject({ status: 'fail', spec: { keyword: 'SCHEMA' } })
  })

  it('in the registry: exactly the reviewed cases lack a sentence where their check runs, and a breach of any of them is information', () => {
    const found: string[] = []
    for (const check of CHECKS) {
      const cases = [...new Set(check.rules.map((r) => r.case).filter((c): c is string => c !== undefined))]
      for (const revision of KNOWN_REVISIONS) {
        if (!ruleFor(check, revision)) continue
        for (const ruleCase of cases.filter((c) => !ruleFor(check, revision, c))) {
          found.push(`${check.id} [${ruleCase}] @${revision}`)
          const verdict = judge(check, revision, { name: 'x' }).breach('broken', {}, ruleCase)
          expect(verdict.status, `${check.id} [${ruleCase}] @${revision}`).toBe('skip')
          expect(verdict.message.startsWith(INFORMATION)).toBe(true)
          expect(verdict.spec).toBeUndefined()
        }
      }
    }
    expect(found.sort()).toEqual([...CASES_WITHOUT_A_SENTENCE].sort())
  })

  it('every case an evaluator reports has a sentence in every revision its check runs in, bar the reviewed ones', () => {
    const missing: string[] = []
    for (const [id, cases] of Object.entries(CASES_REPORTED)) {
      const check = definitionOf(id)
      expect(check, id).toBeDefined()
      for (const revision of KNOWN_REVISIONS.filter((r) => ruleFor(check!, r))) {
        for (const ruleCase of cases) if (!ruleFor(check!, revision, ruleCase)) missing.push(`${id} [${ruleCase}] @${revision}`)
      }
    }
    expect(missing.filter((m) => !CASES_WITHOUT_A_SENTENCE.includes(m))).toEqual([])
  })
})

describe('declared features: an error is information, the result shape and the reply still fail', () => {
  const V = '2025-11-25'
  const error = (code: number): RpcOutcome => ({ kind: 'error', error: { code, message: 'nope' }, wire: [] })
  const NEGOTIATION = 'Client and server capabilities establish which optional protocol features will be available during the session.'

  it('resources/read: -32002 (resource not found) is never a failure and cites the sentence it follows; another error is information citing capability negotiation', () => {
    expect(judgeRead('file:///a', error(-32002), undefined, V)).toMatchObject({
      status: 'skip',
      message: expect.stringMatching(/^Information .*-32002/),
      spec: { keyword: 'SHOULD', quote: 'Servers SHOULD return standard JSON-RPC errors for common failure cases: Resource not found: -32002', url: 'https://modelcontextprotocol.io/specification/2025-11-25/server/resources#error-handling' },
    })
    expect(judgeRead('file:///a', error(-32603), undefined, V)).toMatchObject({ status: 'skip', spec: { keyword: 'NONE', quote: NEGOTIATION } })
    expect(judgeRead('file:///a', { kind: 'result', result: { contents: [{}] }, wire: [] }, undefined, V)).toMatchObject({ status: 'fail', spec: { keyword: 'SCHEMA' } })
    expect(judgeRead('file:///a', { kind: 'timeout', wire: [] } as unknown as RpcOutcome, undefined, V)).toMatchObject({ status: 'fail', spec: { keyword: 'MUST' } })
  })

  it('prompts/get, completion/complete, resources/subscribe and logging/setLevel: a JSON-RPC error is information; -32602 for made-up values cites the SHOULD it follows', () => {
    const target = { ref: { type: 'ref/prompt', name: 'p' }, argument: 'a', label: 'prompt "p"' }
    for (const verdict of [judgeGetPrompt('p', error(-32603), undefined, V), judgeComplete(target, error(-32603), V), judgeSubscribe('file:///a', error(-32601), undefined, V), judgeSetLevel(error(-32601), V)]) {
      expect(verdict, verdict.id).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Information /), spec: { keyword: 'NONE' } })
    }
    expect(judgeTemplates(error(-32603), V)).toMatchObject({ status: 'skip', spec: { keyword: 'NONE', quote: NEGOTIATION } })
    // What these methods return is still judged by the schema: a result that is no object fails.
    expect(judgeSetLevel({ kind: 'result', result: 'ok', wire: [] }, V)).toMatchObject({ status: 'fail', spec: { keyword: 'SCHEMA' } })
    expect(judgeSubscribe('file:///a', { kind: 'result', result: [], wire: [] }, undefined, V)).toMatchObject({ status: 'fail', spec: { keyword: 'SCHEMA' } })
    for (const verdict of [judgeGetPrompt('p', error(-32602), undefined, V, ['a']), judgeComplete(target, error(-32602), V)]) {
      expect(verdict, verdict.id).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Information .*as the spec suggests$/), spec: { keyword: 'SHOULD', quote: expect.stringMatching(/^Servers SHOULD return standard JSON-RPC errors/) } })
    }
  })
})

describe('quotes as the revision words them', () => {
  const quote = (id: string, revision: Revision, ruleCase?: string) => cite(ruleFor(definitionOf(id)!, revision, ruleCase)!, revision)

  it('http/post-response-type: 2025-03-26 speaks of "any number of JSON-RPC requests", later revisions of "a JSON-RPC request"', () => {
    expect(quote('http/post-response-type', '2025-03-26').quote).toBe(
      'If the input contains any number of JSON-RPC requests, the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object.',
    )
    expect(quote('http/post-response-type', '2025-06-18').quote).toMatch(/^If the input is a JSON-RPC request, the server MUST either return/)
  })

  it('jsonrpc/response-ids in 2025-11-25: two bullets of two sections, joined by "; " as separate passages are', () => {
    expect(quote('jsonrpc/response-ids', '2025-11-25').quote).toBe(
      'Result responses MUST include the same ID as the request they correspond to; Error responses MUST include the same ID as the request they correspond to (except in error cases where the ID could not be read due a malformed request).',
    )
  })

  it('jsonrpc/version in 2024-11-05 links the messages page itself, whose opening paragraph states it (the page has no "Messages" heading)', () => {
    expect(quote('jsonrpc/version', '2024-11-05').url).toBe('https://modelcontextprotocol.io/specification/2024-11-05/basic/messages')
    expect(quote('jsonrpc/version', '2025-03-26').url).toBe('https://modelcontextprotocol.io/specification/2025-03-26/basic#messages')
  })
})
