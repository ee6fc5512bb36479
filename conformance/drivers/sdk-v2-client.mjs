#!/usr/bin/env node
// A driver for the SDK's v2 client (@modelcontextprotocol/client), which speaks MCP 2026-07-28
// and falls back to the legacy handshake (versionNegotiation 'auto'): the driver protocol of
// conformance/FORMAT.md. JSON lines in on stdin, answers out on stdout. It needs
// @modelcontextprotocol/client installed beside it (this repository pins it as a devDependency).
import { createInterface } from 'node:readline'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
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

const ops = {
  async connect({ server, options: given }) {
    options = given
    client = new Client({ name: 'sdk-v2-client-driver', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    const transport = server.transport === 'stdio'
      ? new StdioClientTransport({ command: server.command, args: server.args, env: server.env })
      : new StreamableHTTPClientTransport(new URL(server.url))
    await client.connect(transport, { timeout: options.connectTimeoutMs })
    send({ event: 'log', text: `connected at ${client.getNegotiatedProtocolVersion()}` })
    return { features: [] }
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
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    send({ id: request.id, ok: false, error: String(error?.message ?? error) })
  }
})
