#!/usr/bin/env node
/* global setInterval */
// Driver faults (a broken driver is a harness error, never a verdict): argv[2] = mode. Real SDK client underneath (as sdk-client.mjs).
import { createInterface } from 'node:readline'
import { spawn } from 'node:child_process'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const mode = process.argv[2] ?? 'none'
const out = (s) => process.stdout.write(s)
const send = (message) => out(`${JSON.stringify(message)}\n`)
let client
let options = {}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

if (mode === 'stderr-flood') {
  // 5 MB of stderr, one line without newline at the end, plus escape sequences
  const chunk = '\x1b[31mERR\x1b[0m ' + 'x'.repeat(1000) + '\n'
  for (let i = 0; i < 5000; i++) process.stderr.write(chunk)
  process.stderr.write('y'.repeat(2_000_000))
}
if (mode === 'escape-junk') out('\x1b[2J\x1b[31mJUNK\r\x07 \u202e evil\n')
if (mode === 'huge-junk') out('z'.repeat(5_000_000) + '\n')
if (mode === 'many-junk') for (let i = 0; i < 200000; i++) out(`junk line ${i}\n`)
if (mode === 'escape-in-error') {
  // exits at once; stderr carries escapes; harness error message will quote it
  process.stderr.write('\x1b[2J\x1b[1;31mBOOM\x1b[0m\r\x07 secret ghp_0123456789abcdefghijABCDEFGHIJ012345\n')
  process.exit(7)
}
if (mode === 'escape-stderr-then-die-later') process.stderr.write('\x1b[2J\x1b[1;31mBOOM\x1b[0m\r\x07 AKIAIOSFODNN7EXAMPLE\n')
if (mode === 'background-escape') {
  // the driver leaves a background process in a new session that outlives everything
  const c = spawn('setsid', ['sleep', '300'], { detached: true, stdio: 'ignore' })
  c.unref()
}

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

const ops = {
  async connect({ server, options: given }) {
    options = given
    if (mode === 'slow-connect') await sleep(25000)
    client = new Client({ name: 'harness-driver', version: '1.0.0' })
    const transport = server.transport === 'stdio'
      ? new StdioClientTransport({ command: server.command, args: server.args, env: server.env })
      : new StreamableHTTPClientTransport(new URL(server.url))
    await client.connect(transport, { timeout: options.connectTimeoutMs })
    if (mode === 'bad-features') return { features: 5 }
    if (mode === 'string-features') return { features: 'listChanged,reconnect' }
    return { features: [] }
  },
  list: async () => ({ tools: await listAll() }),
  async call({ name, args }) {
    if (mode === 'crash-on-call') process.exit(3)
    if (mode === 'slow-call') await sleep(25000)
    if (mode === 'bad-content') return { result: { isError: false, content: 'not an array' } }
    if (mode === 'bad-content-obj') return { result: { isError: false, content: [null, 5, { type: 'text', text: { nested: true } }] } }
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: options.callTimeoutMs })
    return { result: { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent } }
  },
  abort: async () => ({}),
  close: async () => (await client?.close(), {}),
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line)
  if (mode === 'silent') return
  if (mode === 'dup-answer' && request.op === 'list') send({ id: request.id, ok: true, tools: [] })
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    send({ id: request.id, ok: false, error: String(error?.message ?? error) })
  }
})
if (mode === 'ignore-eof') process.stdin.on('end', () => setInterval(() => {}, 1000))
