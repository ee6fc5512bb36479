#!/usr/bin/env node
// A driver for the SDK's v2 client (@modelcontextprotocol/client), which speaks MCP 2026-07-28
// and falls back to the legacy handshake (versionNegotiation 'auto'): the driver protocol of
// conformance/FORMAT.md. JSON lines in on stdin, answers out on stdout. It needs
// @modelcontextprotocol/client installed beside it (this repository pins it as a devDependency).
import { createInterface } from 'node:readline'
import { Client, ProtocolError, ProtocolErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

// stdout carries the protocol alone: the client logs some warnings there (a list asked of a
// server without the capability, say), so everything else written to it goes to stderr.
const stdout = process.stdout.write.bind(process.stdout)
process.stdout.write = process.stderr.write.bind(process.stderr)
const send = (message) => stdout(`${JSON.stringify(message)}\n`)
const calls = new Map() // call request id -> its AbortController
let client
let options = {}

// Pages are followed to the end; a cursor seen twice ends discovery instead of looping forever.
async function listAll() {
  if (!client.getServerCapabilities()?.tools) return []
  const tools = []
  const seen = new Set()
  let cursor
  do {
    if (seen.has(cursor)) throw new Error(`the server repeated cursor ${JSON.stringify(cursor)}`)
    seen.add(cursor)
    const page = await client.listTools(cursor === undefined ? {} : { cursor })
    tools.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))
}

// Beyond tools: the v2 client walks every page itself when a list is asked without a cursor, so
// its own pagination is what is judged; capabilities are left to the client to respect.
const ops = {
  resources: async () => ({ value: await client.listResources() }),
  templates: async () => ({ value: await client.listResourceTemplates() }),
  read: async ({ uri }) => ({ value: await client.readResource({ uri }, { timeout: options.callTimeoutMs }) }),
  prompts: async () => ({ value: await client.listPrompts() }),
  prompt: async ({ name, args }) => ({ value: await client.getPrompt({ name, arguments: args }) }),
  complete: async ({ ref, argument }) => ({ value: await client.complete({ ref, argument }) }),
  // The roots the handler answers change, and the server is told (the SDK's own notification,
  // which 2026-07-28 no longer has: the kit judges it only where the client initialized).
  async setRoots({ roots }) {
    if (!options.asks?.roots) throw new Error('no roots configured: the client declared no roots capability')
    options.asks.roots = roots
    await client.sendRootsListChanged()
    return {}
  },
  async connect({ server, options: given }) {
    options = given
    // What the server may ask (O.asks): each capability declared only with an answer to give; the
    // SDK hands a 2026-07-28 input request to the same handler as a legacy server request.
    const asks = options.asks ?? {}
    const capabilities = {
      ...(asks.roots ? { roots: { listChanged: true } } : {}),
      ...(asks.elicitation ? { elicitation: Object.fromEntries((asks.elicitation.modes ?? ['form']).map((mode) => [mode, {}])) } : {}),
      ...(asks.sampling ? { sampling: {} } : {}),
    }
    client = new Client({ name: 'sdk-v2-client-driver', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities })
    // Read at each ask: `setRoots` changes them while the client runs.
    if (asks.roots) client.setRequestHandler('roots/list', () => ({ roots: asks.roots }))
    if (asks.elicitation) client.setRequestHandler('elicitation/create', () => asks.elicitation.answer)
    // The SDK leaves it to the handler: without sampling.tools declared, a tool-enabled request is an error.
    if (asks.sampling) client.setRequestHandler('sampling/createMessage', (request) => {
      if (request.params.tools !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'tool use in sampling is not supported (no sampling.tools capability)')
      return asks.sampling.answer
    })
    const transport = server.transport === 'stdio'
      ? new StdioClientTransport({ command: server.command, args: server.args, env: server.env })
      : new StreamableHTTPClientTransport(new URL(server.url))
    await client.connect(transport, { timeout: options.connectTimeoutMs })
    send({ event: 'log', text: `connected at ${client.getNegotiatedProtocolVersion()}` })
    return { features: ['resources', 'prompts', 'completions', 'roots', 'elicitation', 'sampling'] }
  },
  list: async () => ({ tools: await listAll() }),
  async call({ id, name, args }) {
    const controller = new AbortController()
    calls.set(id, controller)
    try {
      const result = await client.callTool({ name, arguments: args }, { signal: controller.signal, timeout: options.callTimeoutMs })
      return { result: { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent } }
    } finally {
      calls.delete(id)
    }
  },
  abort: async ({ call }) => (calls.get(call)?.abort('the caller aborted the call'), {}),
  close: async () => (await client?.close(), {}),
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line)
  if (!ops[request.op]) return send({ id: request.id, ok: false, unsupported: true, error: `this driver does not support "${request.op}"` })
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    send({ id: request.id, ok: false, error: String(error?.message ?? error) })
  }
})
