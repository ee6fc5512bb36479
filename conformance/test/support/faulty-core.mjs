// A small MCP server, transport-free, for the audit's findings (server-faults.test.ts): correct by
// default (tools only, an echo that reports progress), and with each FAULTS key one deliberate
// fault. `respond(message, faults)` returns what the server writes, in order; a Buffer is a raw
// stdout line (invalid UTF-8 needs bytes, not a string).

export const FAULTS = {
  'many-pages': 'tools/list has 150 pages, every cursor distinct: long, but finite',
  'cursor-loop': 'tools/list returns the same nextCursor on every page',
  'tools-list-hang': 'tools/list is never answered',
  'call-error': 'a valid tools/call of echo is answered with JSON-RPC error -32603, whose message quotes a token',
  leak: 'the echo result quotes a token',
  'jsonrpc-1.0': 'every message carries "jsonrpc": "1.0"',
  'id-as-string': 'every response id is the request id as a string',
  'init-result-and-error': 'the initialize response carries both a result and an error',
  'ping-unsupported': 'ping is answered with -32601',
  'progress-decreasing': 'echo reports progress 5, then 2',
  'invalid-utf8': 'the tools/list response carries bytes that are not UTF-8',
  'undeclared-hang': 'resources/list and prompts/list (not declared) are never answered',
}

/** A GitHub-token-shaped secret the redactor must keep out of every report. */
export const TOKEN = 'ghp_AuditLeak0abcdefghijklmnopqrstuvwxyz'

const REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']
const ECHO = { name: 'echo', description: 'Echo a message', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false } }
const ADD = {
  name: 'add',
  description: 'Add two numbers',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
}
const PAGES = 150

export function respond(message, faults) {
  const has = (fault) => faults.has(fault)
  const version = has('jsonrpc-1.0') ? '1.0' : '2.0'
  const { id, method, params = {} } = message
  if (id === undefined || method === undefined) return []
  const replyId = has('id-as-string') && typeof id === 'number' ? String(id) : id
  const ok = (result) => ({ jsonrpc: version, id: replyId, result })
  const fail = (code, text) => ({ jsonrpc: version, id: replyId, error: { code, message: text } })
  switch (method) {
    case 'initialize': {
      const protocolVersion = REVISIONS.includes(params.protocolVersion) ? params.protocolVersion : REVISIONS[0]
      const result = { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'faulty', version: '1.0.0' } }
      return [has('init-result-and-error') ? { ...ok(result), error: { code: -32603, message: 'and an error' } } : ok(result)]
    }
    case 'ping':
      return [has('ping-unsupported') ? fail(-32601, 'Method not found: ping') : ok({})]
    case 'tools/list':
      return toolsList(params.cursor, has, ok)
    case 'tools/call':
      return call(params, has, version, ok, fail)
    case 'resources/list':
    case 'prompts/list':
      if (has('undeclared-hang')) return []
      return [fail(-32601, `Method not found: ${method}`)]
    default:
      return [fail(-32601, `Method not found: ${method}`)]
  }
}

function toolsList(cursor, has, ok) {
  if (has('tools-list-hang')) return []
  if (has('cursor-loop')) return [ok({ tools: [cursor === undefined ? ECHO : ADD], nextCursor: 'again' })]
  if (has('many-pages')) {
    const page = cursor === undefined ? 0 : Number(cursor.slice(1))
    const tool = page === 0 ? ECHO : page === 1 ? ADD : { name: `filler${page}`, description: 'filler', inputSchema: { type: 'object' } }
    return [ok(page < PAGES - 1 ? { tools: [tool], nextCursor: `p${page + 1}` } : { tools: [tool] })]
  }
  if (has('invalid-utf8')) {
    // 0xFF and 0xFE never occur in UTF-8; they replace the "XX" placeholder inside a description.
    const line = Buffer.from(`${JSON.stringify(ok({ tools: [{ ...ECHO, description: 'Echo XX' }, ADD] }))}\n`, 'utf8')
    const at = line.indexOf('XX')
    line[at] = 0xff
    line[at + 1] = 0xfe
    return [line]
  }
  return [ok({ tools: [ECHO, ADD] })]
}

function call(params, has, version, ok, fail) {
  const args = params.arguments ?? {}
  const token = params._meta?.progressToken
  const progress = (value) => ({ jsonrpc: version, method: 'notifications/progress', params: { progressToken: token, progress: value, total: 10 } })
  if (params.name === 'echo') {
    if (typeof args.message !== 'string' || Object.keys(args).length !== 1) return [ok({ content: [{ type: 'text', text: 'message must be the only argument, a string' }], isError: true })]
    const reported = token === undefined ? [] : has('progress-decreasing') ? [progress(5), progress(2)] : [progress(5)]
    if (has('call-error')) return [...reported, fail(-32603, `Internal error: backend refused token ${TOKEN}`)]
    const text = has('leak') ? `${args.message} (token ${TOKEN})` : args.message
    return [...reported, ok({ content: [{ type: 'text', text }] })]
  }
  if (params.name === 'add') {
    if (typeof args.a !== 'number' || typeof args.b !== 'number') return [ok({ content: [{ type: 'text', text: 'a and b must be numbers' }], isError: true })]
    const sum = args.a + args.b
    return [ok({ content: [{ type: 'text', text: JSON.stringify({ sum }) }], structuredContent: { sum } })]
  }
  return [fail(-32602, `Unknown tool: ${params.name}`)]
}
