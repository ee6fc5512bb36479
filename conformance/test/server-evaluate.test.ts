/** Table tests for the pure verdict modules: no servers, just observations in and checks out. */
import { describe, expect, it } from 'vitest'
import { excerpt } from '../src/server/check.ts'
import { invalidArgumentsFor, judgeInvalidArguments, judgeUncallable, judgeUnknownTool, judgeUserCall, unknownToolName } from '../src/server/evaluate/calls.ts'
import { judgeInitialize, judgeUnsupportedVersion } from '../src/server/evaluate/lifecycle.ts'
import { judgeList, pageShapes, type ListObservation } from '../src/server/evaluate/lists.ts'
import { judgeProjection, judgeSchemaSize, projectTools } from '../src/server/evaluate/projection.ts'
import { definitionIssue, judgeTools } from '../src/server/evaluate/tools.ts'
import { compileSchema, dialectOf } from '../src/server/schema.ts'
import { validateShape } from '../src/server/shapes.ts'
import { SseParser } from '../src/server/wire/sse.ts'
import type { RpcOutcome } from '../src/server/wire/types.ts'

const result = (value: unknown): RpcOutcome => ({ kind: 'result', result: value, wire: [] })
const error = (code: number): RpcOutcome => ({ kind: 'error', error: { code, message: 'nope' }, wire: [] })
const byId = (checks: Array<{ id: string; status: string }>) => Object.fromEntries(checks.map((c) => [c.id, c.status]))

describe('initialize', () => {
  const good = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }

  it('accepts a counter-offer of a known revision and judges the rest by it', () => {
    const { checks, session } = judgeInitialize(result(good), '2025-11-25')
    expect(session?.version).toBe('2025-06-18')
    expect(byId(checks)).toEqual({ 'lifecycle/initialize': 'pass', 'lifecycle/protocol-version': 'pass', 'lifecycle/server-info': 'pass', 'lifecycle/capabilities': 'pass' })
    // Cited from the revision the server agreed to, not the one the kit asked for.
    expect(checks.find((c) => c.id === 'lifecycle/initialize')?.spec?.url).toBe('https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization')
    expect(checks.find((c) => c.id === 'lifecycle/server-info')?.spec?.url).toBe('https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-06-18/schema.ts')
  })

  it.each([
    [{ ...good, protocolVersion: 7 }, 'lifecycle/initialize', 'fail'],
    [{ ...good, capabilities: { tools: true } }, 'lifecycle/capabilities', 'fail'],
    [{ ...good, serverInfo: { name: 's' } }, 'lifecycle/server-info', 'fail'],
    [{ ...good, protocolVersion: '2030-01-01' }, 'lifecycle/protocol-version', 'fail'],
    [{ ...good, protocolVersion: 'latest' }, 'lifecycle/protocol-version', 'fail'],
  ])('%j → %s is %s', (value, id, status) => {
    const { checks } = judgeInitialize(result(value), '2025-11-25')
    expect(checks.find((c) => c.id === id)?.status).toBe(status)
  })

  it('a stray field of the wrong type fails lifecycle/initialize and the run goes on with a session', () => {
    const { checks, session } = judgeInitialize(result({ ...good, instructions: 5 }), '2025-11-25')
    expect(session).toBeDefined()
    expect(byId(checks)).toEqual({ 'lifecycle/initialize': 'fail', 'lifecycle/protocol-version': 'pass', 'lifecycle/server-info': 'pass', 'lifecycle/capabilities': 'pass' })
    expect(checks[0]?.message).toMatch(/instructions/)
    // Without capabilities there is nothing to run against.
    expect(judgeInitialize(result({ ...good, capabilities: undefined }), '2025-11-25').session).toBeUndefined()
  })

  it('no answer at all is a failure, an unreachable peer a harness error', () => {
    expect(judgeInitialize({ kind: 'timeout', afterMs: 5, wire: [] }, '2025-11-25').checks[0]?.status).toBe('fail')
    expect(judgeInitialize({ kind: 'closed', reason: 'ECONNREFUSED', unreachable: true, wire: [] }, '2025-11-25').checks[0]?.status).toBe('error')
  })

  it.each([
    [result({ protocolVersion: '2025-11-25' }), 'pass'],
    [result({ protocolVersion: '1999-01-01' }), 'fail'],
    [result({}), 'fail'],
    [error(-32602), 'warn'],
    [{ kind: 'timeout', afterMs: 1, wire: [] } as RpcOutcome, 'fail'],
  ])('unsupported version: %j → %s', (outcome, status) => {
    expect(judgeUnsupportedVersion(outcome, undefined, '2025-11-25').status).toBe(status)
  })
})

describe('tool definitions', () => {
  const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: 'd', inputSchema: { type: 'object' }, ...extra })

  it('name rules only apply from 2025-11-25 (SEP-986) and are a SHOULD', () => {
    const tools = [tool('ok.name'), tool('bad name')]
    expect(byId(judgeTools(tools, '2025-11-25', {}))['tools/names-valid']).toBe('warn')
    expect(byId(judgeTools(tools, '2025-06-18', {}))['tools/names-valid']).toBe('skip')
  })

  it('never passes vacuously: no tools means skip, not pass', () => {
    expect(Object.values(byId(judgeTools([], '2025-11-25', {})))).toEqual(Array(7).fill('skip'))
  })

  it('judges schemas, descriptions, annotations and taskSupport', () => {
    const tools = [
      tool('a', { inputSchema: { type: 'array' } }),
      tool('b', { description: '', outputSchema: { type: 'object', properties: { x: { type: 'nope' } } } }),
      tool('c', { annotations: { readOnlyHint: 'yes' }, execution: { taskSupport: 'required' } }),
    ]
    // The page is validated once with the SDK's ToolSchema; each definition check reports the problems in its fields.
    const observed: ListObservation = { kind: 'tools', pages: [result({ tools })], items: tools, stop: 'end', cursors: [], pageCap: 100 }
    const shapes = pageShapes(observed, '2025-11-25')
    expect(byId(judgeList(observed, '2025-11-25', shapes, definitionIssue))['tools/list']).toBe('pass')
    const judged = judgeTools(tools, '2025-11-25', {}, shapes.issues.filter(definitionIssue))
    expect(judged.find((c) => c.id === 'tools/annotations')?.message).toBe('"c": annotations.readOnlyHint: expected boolean, got "yes"')
    expect(judged.find((c) => c.id === 'tools/input-schema')?.message).toBe('1 inputSchema of 3 fail: "a": inputSchema.type: expected "object", got "array"')
    const checks = byId(judged)
    // An empty description and taskSupport without the tasks capability are not requirements: information.
    expect(checks).toEqual({
      'tools/names-valid': 'pass',
      'tools/names-unique': 'pass',
      'tools/input-schema': 'fail',
      'tools/output-schema': 'fail',
      'tools/descriptions': 'skip',
      'tools/annotations': 'fail',
      'tools/task-support': 'skip',
    })
  })

  it('picks the JSON Schema dialect from $schema, else by revision', () => {
    expect(dialectOf({}, '2025-11-25')).toEqual({ dialect: '2020-12' })
    expect(dialectOf({}, '2025-06-18')).toEqual({ dialect: 'draft-07' })
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-07/schema#' }, '2025-11-25')).toEqual({ dialect: 'draft-07' })
    // A 2020-12 schema with $defs compiles; a misspelt type does not.
    expect(compileSchema({ type: 'object', $defs: { a: { type: 'string' } }, properties: { x: { $ref: '#/$defs/a' } } }, '2025-11-25').ok).toBe(true)
    expect(compileSchema({ type: 'object', properties: { x: { type: 'strin' } } }, '2025-11-25').ok).toBe(false)
  })
})

describe('bridge projection and size', () => {
  it('rewrites names that need sanitising or shortening, with a hash suffix', () => {
    const rows = projectTools('srv', [{ name: 'plain' }, { name: 'dotted.name' }, { name: 'x'.repeat(80) }])
    expect(rows.map((r) => r.change)).toEqual(['verbatim', 'sanitised', 'shortened'])
    expect(rows[0]?.public).toBe('mcp__srv__plain')
    expect(rows[1]?.public).toMatch(/^mcp__srv__dotted_name_[0-9a-f]{12}$/)
    expect(rows.every((r) => r.public.length <= 64)).toBe(true)
  })

  it('distinct raw names never collide (hash); a duplicate raw name does', () => {
    const tools = [{ name: 'a.b', inputSchema: { type: 'object' } }, { name: 'a_b', inputSchema: { type: 'object' } }]
    expect(judgeProjection('srv', tools, '2025-11-25').status).toBe('pass')
    // The bridge's own needs never fail a server: a collision warns.
    expect(judgeProjection('srv', [...tools, tools[0]!], '2025-11-25').status).toBe('warn')
  })

  it("leaves out exactly what the plugin's discovery leaves out: task-only tools only without the server's tasks capability", () => {
    const tasky = { name: 'research', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } }
    const notObject = { name: 'list', inputSchema: { type: 'array' } }
    const without = projectTools('srv', [tasky, notObject])
    expect(without.map((r) => [r.bridged, r.reason])).toEqual([
      [false, expect.stringMatching(/requires task-based execution, but the server does not declare the capability tasks\.requests\.tools\.call/)],
      [false, 'inputSchema must have type "object"'],
    ])
    expect(projectTools('srv', [tasky], true)[0]).toMatchObject({ bridged: true })
    const capabilities = { tools: {}, tasks: { requests: { tools: { call: {} } } } }
    expect(judgeProjection('srv', [tasky], '2025-11-25', capabilities).message).toMatch(/0 left out/)
  })

  it('warns above the documented size thresholds', () => {
    const big = { name: 'big', description: 'x'.repeat(9_000), inputSchema: { type: 'object' } }
    expect(judgeSchemaSize([big], '2025-11-25').status).toBe('warn')
    expect(judgeSchemaSize([{ ...big, description: 'small' }], '2025-11-25').status).toBe('pass')
  })
})

describe('tools/call verdicts depend on the negotiated revision', () => {
  it('unknown tool: a JSON-RPC error passes; the spec requires nothing else, so isError or success is information', () => {
    expect(judgeUnknownTool('x', error(-32602), '2025-11-25').status).toBe('pass')
    expect(judgeUnknownTool('x', result({ content: [], isError: true }), '2025-11-25')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^Information/) })
    expect(judgeUnknownTool('x', result({ content: [] }), '2025-11-25')).toMatchObject({ status: 'skip', message: expect.stringContaining('reported success') })
    expect(judgeUnknownTool('x', { kind: 'timeout', afterMs: 5, wire: [] }, '2025-11-25').status).toBe('fail')
    expect(unknownToolName(['mcp-conformance-no-such-tool'])).toBe('mcp-conformance-no-such-tool-2')
  })

  it('invalid arguments: servers MUST validate tool inputs; either way of rejecting them does', () => {
    expect(judgeInvalidArguments('t', 'omit x', error(-32602), '2025-06-18').status).toBe('pass')
    expect(judgeInvalidArguments('t', 'omit x', error(-32602), '2025-11-25').status).toBe('pass')
    expect(judgeInvalidArguments('t', 'omit x', result({ content: [], isError: true }), '2025-11-25').status).toBe('pass')
    expect(judgeInvalidArguments('t', 'omit x', result({ content: [] }), '2025-11-25').status).toBe('fail')
  })

  it('builds arguments the schema itself rejects, or none', () => {
    const required = invalidArgumentsFor({ inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } }, '2025-11-25')
    expect(required).toEqual({ args: {}, why: 'omit the required property "a"' })
    const typed = invalidArgumentsFor({ inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, '2025-11-25')
    expect(typed?.args).toEqual({ n: 'mcp-conformance' })
    expect(invalidArgumentsFor({ inputSchema: { type: 'object' } }, '2025-11-25')).toBeUndefined()
  })

  it('a user call: shape, structured content, and the task-only rule', () => {
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }
    const ok = judgeUserCall('t', tool, result({ content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } }), '2025-11-25', {})
    expect(byId(ok)).toEqual({ 'tools/call/t': 'pass', 'tools/call/t/structured-content': 'pass' })
    const wrong = judgeUserCall('t', tool, result({ content: [{ type: 'text' }], structuredContent: { n: 'one' } }), '2025-11-25', {})
    expect(byId(wrong)).toEqual({ 'tools/call/t': 'fail', 'tools/call/t/structured-content': 'fail' })
    const taskOnly = { name: 'q', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } }
    const caps = { tasks: { requests: { tools: { call: {} } } } }
    expect(judgeUserCall('q', taskOnly, error(-32601), '2025-11-25', caps)[0]?.status).toBe('pass')
    expect(judgeUserCall('q', taskOnly, result({ content: [], isError: true }), '2025-11-25', caps)[0]?.status).toBe('fail')
    // A name the server never listed is the user's to fix, not a verdict on the server.
    expect(judgeUncallable('missing', { kind: 'not-listed', listed: ['t', 'q'] }, '2025-11-25')).toMatchObject({ status: 'error', message: expect.stringMatching(/^--call "missing": tools\/list does not list this tool \(it lists "t", "q"\); check the --call name against the listed tools$/) })
    expect(judgeUncallable('missing', { kind: 'undeclared', servedAnyway: false }, '2025-11-25').status).toBe('error')
  })

  it('results are validated with the SDK’s schemas, naming the path and the value found there', () => {
    const texts = (name: Parameters<typeof validateShape>[0], value: unknown, revision = '2025-11-25') => validateShape(name, value, revision).issues.map((i) => i.text)
    expect(texts('CallToolResult', { content: [{ type: 'image', data: 'aGk=' }] })).toEqual(['content[0].mimeType: missing, in {"type":"image","data":"aGk="}'])
    expect(texts('GetPromptResult', { messages: [{ role: 'system', content: { type: 'text', text: 'x' } }] })).toEqual(['messages[0].role: expected one of "user"|"assistant", got "system"'])
    // A union is reduced to the member the value meant, or says that it meant none.
    expect(texts('CallToolResult', { content: [{ type: 'video' }] })).toEqual(['content[0].type: "video" is none of "text", "image", "audio", "resource_link", "resource", in {"type":"video"}'])
    // The SDK defaults content to []; every revision requires it.
    expect(texts('CallToolResult', { isError: true })).toEqual(['content: missing, in {"isError":true}'])
  })

  it('a field the negotiated revision does not define is not judged; a content type it does not define is a violation', () => {
    const tool = { name: 't', inputSchema: { type: 'object' }, title: 42, outputSchema: 'nope', execution: { taskSupport: 'always' } }
    expect(validateShape('ListToolsResult', { tools: [tool] }, '2025-11-25').issues.map((i) => i.text)).toEqual([
      'tools[0].title: expected string, got 42',
      'tools[0].outputSchema: expected object, got "nope"',
      'tools[0].execution.taskSupport: expected one of "required"|"optional"|"forbidden", got "always"',
    ])
    expect(validateShape('ListToolsResult', { tools: [tool] }, '2025-03-26')).toEqual({ issues: [], unjudged: ['tools[0].title', 'tools[0].outputSchema', 'tools[0].execution'] })
    const link = { content: [{ type: 'resource_link', uri: 'mem://a', name: 'a' }] }
    expect(validateShape('CallToolResult', link, '2025-06-18').issues).toEqual([])
    expect(validateShape('CallToolResult', link, '2025-03-26').issues.map((i) => i.text)).toEqual(['content[0].type: "resource_link" is not a content type of 2025-03-26 (it arrived in 2025-06-18)'])
    // Required until 2025-06-18, optional after; a format the spec only recommends is not a verdict.
    const cancelled = { method: 'notifications/cancelled', params: { reason: 'x' } }
    expect(validateShape('CancelledNotification', cancelled, '2025-06-18').issues.map((i) => i.text)).toEqual(['params.requestId: missing, in {"reason":"x"}'])
    expect(validateShape('CancelledNotification', cancelled, '2025-11-25').issues).toEqual([])
    expect(validateShape('ListResourcesResult', { resources: [{ uri: 'a', name: 'a', annotations: { lastModified: 'yesterday' } }] }, '2025-11-25').issues).toEqual([])
  })
})

describe('lists and pagination', () => {
  const obs = (over: Partial<ListObservation>): ListObservation => ({ kind: 'tools', pages: [result({ tools: [] })], items: [], stop: 'end', cursors: [], pageCap: 100, ...over })

  it.each([
    [obs({}), 'pass', 'skip'],
    [obs({ pages: [result({ tools: [], nextCursor: 'c' }), result({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] })], cursors: ['c'], items: [{ name: 'a' }] }), 'pass', 'pass'],
    [obs({ stop: 'repeated-cursor', cursors: ['c', 'c'] }), 'pass', 'warn'],
    [obs({ stop: 'page-cap' }), 'pass', 'skip'],
    [obs({ pages: [result({ tools: [{ title: 'no name', inputSchema: { type: 'object' } }] })], items: [{ title: 'no name' }] }), 'fail', 'skip'],
    // What the list check reports is not reported again: pagination is not testable, naming tools/list.
    [obs({ pages: [result({ tools: [], nextCursor: 7 })], stop: 'bad-page' }), 'fail', 'skip'],
    [obs({ stop: 'failed', pages: [error(-32603)] }), 'fail', 'skip'],
  ])('%# list=%s pagination=%s', (observation, list, pagination) => {
    expect(byId(judgeList(observation, '2025-11-25'))).toEqual({ 'tools/list': list, 'tools/pagination': pagination })
  })
})

describe('wire helpers', () => {
  it('the SSE parser handles events split across chunks, CRLF and comments', () => {
    const parser = new SseParser()
    const chunks = [': keep-alive\r\nid: 1\r\ndata: {"a"', ':1}\r', '\n\r\nevent: message\ndata: x\ndata: y\n', '\n']
    const events = chunks.flatMap((c) => parser.push(c))
    expect(events).toEqual([
      { event: 'message', data: '{"a":1}', id: '1' },
      { event: 'message', data: 'x\ny', id: '1' },
    ])
  })

  it('evidence is bounded: long strings and arrays are cut and marked', () => {
    const cut = excerpt({ s: 'x'.repeat(3_000), a: Array.from({ length: 150 }, (_, i) => i) }) as { s: string; a: unknown[] }
    expect(cut.s).toMatch(/… \[1000 more characters\]$/)
    expect(cut.a).toHaveLength(101)
    expect(cut.a[100]).toBe('… [50 more items]')
  })
})
