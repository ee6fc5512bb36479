#!/usr/bin/env node
// The beyond-tools verbs of conformance/drivers/sdk-client.mjs with one bug switched on (argv[2]),
// each a mistake a client could ship, each to be caught by one check of the kit. Without an
// argument it drives the raw SDK client correctly. `no-features` declares nothing beyond tools;
// `unsupported` declares the features but refuses every verb as unsupported.
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { GetPromptResultSchema } from '@modelcontextprotocol/sdk/types.js'

const bug = process.argv[2] ?? 'none'
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
let client

// Asks a server only for what it declared, unless the bug is ignore-capability.
function needs(capability) {
  if (bug !== 'ignore-capability' && !client.getServerCapabilities()?.[capability]) throw new Error(`the server declared no ${capability}`)
}

async function allPages(list, key) {
  const items = []
  let cursor
  let pages = 0
  do {
    const page = await list(cursor === undefined ? {} : { cursor })
    items.push(...page[key])
    // first-page-only: stops after one page. cursor-edited: "fixes" the cursor it got back.
    cursor = bug === 'first-page-only' ? undefined : page.nextCursor === undefined ? undefined : bug === 'cursor-edited' ? page.nextCursor.toUpperCase() : page.nextCursor
  } while (cursor !== undefined && ++pages < 50)
  return { [key]: items }
}

const ops = {
  async connect({ server }) {
    client = new Client({ name: 'broken-beyond-driver', version: '1.0.0' })
    const transport = server.transport === 'stdio' ? new StdioClientTransport({ command: server.command, args: server.args, env: server.env }) : new StreamableHTTPClientTransport(new URL(server.url))
    await client.connect(transport)
    return { features: bug === 'no-features' ? [] : ['resources', 'prompts', 'completions'] }
  },
  list: async () => ({ tools: client.getServerCapabilities()?.tools ? (await client.listTools()).tools : [] }),
  call: async ({ name, args }) => ({ result: await client.callTool({ name, arguments: args }) }),
  resources: async () => (needs('resources'), { value: await allPages((p) => client.listResources(p), 'resources') }),
  templates: async () => ({ value: await allPages((p) => client.listResourceTemplates(p), 'resourceTemplates') }),
  prompts: async () => (needs('prompts'), { value: await allPages((p) => client.listPrompts(p), 'prompts') }),
  async read({ uri }) {
    // uri-decoded: reads the "readable" spelling of the URI it listed.
    const value = await client.readResource({ uri: bug === 'uri-decoded' ? decodeURIComponent(uri) : uri })
    // blob-as-text: turns the bytes into UTF-8 text and back, as a client that treats every content as text.
    if (bug === 'blob-as-text') for (const c of value.contents) if (c.blob !== undefined) c.blob = Buffer.from(Buffer.from(c.blob, 'base64').toString('utf8')).toString('base64')
    return { value }
  },
  async prompt({ name, args }) {
    // numeric-arguments: sends "7" as the number 7, past the SDK's types.
    // null-arguments: sends `arguments: null` for a prompt asked without any.
    if (bug === 'null-arguments' && Object.keys(args).length === 0) return { value: await client.request({ method: 'prompts/get', params: { name, arguments: null } }, GetPromptResultSchema) }
    const sent = bug === 'numeric-arguments' ? Object.fromEntries(Object.entries(args).map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v])) : args
    return { value: await client.request({ method: 'prompts/get', params: { name, arguments: sent } }, GetPromptResultSchema) }
  },
  async complete({ ref, argument }) {
    // ignore-capability: asks whatever the server declared.
    needs('completions')
    return { value: await client.complete({ ref, argument }) }
  },
  close: async () => (await client?.close(), {}),
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line)
  const beyond = ['resources', 'templates', 'read', 'prompts', 'prompt', 'complete'].includes(request.op)
  if (bug === 'unsupported' && beyond) return send({ id: request.id, ok: false, unsupported: true, error: `no "${request.op}" in this client` })
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    // swallow-errors: the server's error becomes an empty result, as a client that hides failures.
    if (bug === 'swallow-errors' && beyond) return send({ id: request.id, ok: true, value: {} })
    send({ id: request.id, ok: false, error: String(error?.message ?? error) })
  }
})
