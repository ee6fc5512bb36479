#!/usr/bin/env node
// A driver for the raw @modelcontextprotocol/sdk Client: the driver protocol of
// conformance/FORMAT.md, in one file. JSON lines in on stdin, answers out on stdout.
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
const calls = new Map() // call request id -> its AbortController
let client
let options = {}

// Pages are followed to the end; a cursor seen twice ends discovery instead of looping forever.
// A server that did not declare tools is not asked for them.
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

// Beyond tools: whole lists (every page followed, as for tools), reads, prompts and completions,
// each asked only of a server that declared the capability it needs.
function needs(capability) {
  if (!client.getServerCapabilities()?.[capability]) throw new Error(`the server declared no "${capability}" capability`)
}

async function allPages(capability, list, key) {
  needs(capability)
  const items = []
  const seen = new Set()
  let cursor
  do {
    if (seen.has(cursor)) throw new Error(`the server repeated cursor ${JSON.stringify(cursor)}`)
    seen.add(cursor)
    const page = await list(cursor === undefined ? {} : { cursor })
    items.push(...page[key])
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return { value: { [key]: items } }
}

const ops = {
  resources: () => allPages('resources', (params) => client.listResources(params), 'resources'),
  templates: () => allPages('resources', (params) => client.listResourceTemplates(params), 'resourceTemplates'),
  prompts: () => allPages('prompts', (params) => client.listPrompts(params), 'prompts'),
  read: async ({ uri }) => (needs('resources'), { value: await client.readResource({ uri }, { timeout: options.callTimeoutMs }) }),
  prompt: async ({ name, args }) => (needs('prompts'), { value: await client.getPrompt({ name, arguments: args }) }),
  complete: async ({ ref, argument }) => (needs('completions'), { value: await client.complete({ ref, argument }) }),
  async connect({ server, options: given }) {
    options = given
    client = new Client({ name: 'sdk-client-driver', version: '1.0.0' }, {
      // The SDK debounces list_changed (300 ms by default); the tools are re-listed once per burst.
      listChanged: { tools: { autoRefresh: false, onChanged: () => listAll().then((tools) => send({ event: 'tools', tools }), () => {}) } },
    })
    const transport = server.transport === 'stdio'
      ? new StdioClientTransport({ command: server.command, args: server.args, env: server.env })
      : new StreamableHTTPClientTransport(new URL(server.url))
    await client.connect(transport, { timeout: options.connectTimeoutMs })
    return { features: ['listChanged', 'resources', 'prompts', 'completions'] }
  },
  list: async () => ({ tools: await listAll() }),
  async call({ id, name, args }) {
    const controller = new AbortController()
    calls.set(id, controller)
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, { signal: controller.signal, timeout: options.callTimeoutMs })
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
