#!/usr/bin/env node
// conformance/drivers/sdk-client.mjs with one fault of the wire switched on (argv[2]): what the
// client puts on the wire breaks the base protocol, the lifecycle or the HTTP transport, or what
// it hands its child breaks the bridge's environment rule. Without an argument it is the
// reference driver. client-wire.test.ts shows each fault failing the check that names its rule.
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const fault = process.argv[2] ?? 'none'
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
let client
let options = {}

async function listAll() {
  const tools = []
  let cursor
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor })
    tools.push(...page.tools)
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))
}

/** Rewrites single outgoing messages; answers come back under the ids the SDK gave them. */
function faulty(transport) {
  const raw = transport.send.bind(transport)
  const ids = []
  transport.send = async (message, o) => {
    const m = { ...message }
    // jsonrpc-1: tools/call declares JSON-RPC 1.0.
    if (fault === 'jsonrpc-1' && m.method === 'tools/call') m.jsonrpc = '1.0'
    // null-id: tools/call carries id null.
    if (fault === 'null-id' && m.method === 'tools/call') {
      ids.push(m.id)
      m.id = null
    }
    // dup-id: every request after initialize carries id 1.
    if (fault === 'dup-id' && m.method !== undefined && m.id !== undefined && m.method !== 'initialize') {
      ids.push(m.id)
      m.id = 1
    }
    // notification-with-id: notifications/initialized carries an id.
    if (fault === 'notification-with-id' && m.method === 'notifications/initialized') m.id = 77
    // pipeline-list: tools/list goes out right after initialize, before its answer.
    if (fault === 'pipeline-list' && m.method === 'initialize') {
      await raw(m, o)
      return raw({ jsonrpc: '2.0', id: 'early', method: 'tools/list', params: {} })
    }
    return raw(m, o)
  }
  const start = transport.start.bind(transport)
  transport.start = async () => {
    const on = transport.onmessage
    transport.onmessage = (message, extra) => {
      if (ids.length && (message.id === 1 || message.id === null) && !('method' in message)) message = { ...message, id: ids.shift() }
      if (message.id === 'early') return
      on?.(message, extra)
    }
    return start()
  }
  return transport
}

const ops = {
  async connect({ server, options: given }) {
    options = given
    client = new Client({ name: 'wire-faulty-driver', version: '1.0.0' })
    // well-known-secrets: the child gets the safe base plus well-known credential names by name.
    const env = fault === 'well-known-secrets' ? { ...getDefaultEnvironment(), ...Object.fromEntries(['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY'].filter((k) => process.env[k]).map((k) => [k, process.env[k]])), ...server.env } : server.env
    // no-accept: POSTs and GETs go out without the Accept header.
    const fetchFn = async (input, init = {}) => {
      const headers = new globalThis.Headers(init.headers)
      if (fault === 'no-accept') headers.delete('accept')
      return globalThis.fetch(input, { ...init, headers })
    }
    const transport = server.transport === 'stdio'
      ? new StdioClientTransport({ command: server.command, args: server.args, env })
      : new StreamableHTTPClientTransport(new URL(server.url), { fetch: fetchFn })
    await client.connect(faulty(transport), { timeout: options.connectTimeoutMs })
    return { features: [] }
  },
  list: async () => ({ tools: await listAll() }),
  async call({ name, args }) {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: options.callTimeoutMs ?? 3000 })
    return { result: { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent } }
  },
  abort: async () => ({}),
  close: async () => (await client?.close(), {}),
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line)
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    send({ id: request.id, ok: false, error: String(error?.message ?? error) })
  }
})
