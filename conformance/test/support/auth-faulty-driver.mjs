#!/usr/bin/env node
// A driver whose client declares OAuth but gets the given bearer token wrong (argv[2]), to show
// the auth scenarios fail a client under the MUST they quote:
//   query:  sends the token in the URL's query string instead of the Authorization header
//   absent: declares auth and ignores it (every request goes without a credential)
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const bug = process.argv[2] ?? 'query'
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
let client

const ops = {
  async connect({ server, options }) {
    client = new Client({ name: 'auth-faulty-driver', version: '1.0.0' })
    const url = new URL(server.url)
    if (bug === 'query' && options.auth?.grant === 'bearer') url.searchParams.set('access_token', options.auth.token)
    await client.connect(new StreamableHTTPClientTransport(url), { timeout: options.connectTimeoutMs })
    return { features: ['auth'] }
  },
  list: async () => ({ tools: (await client.listTools()).tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) }),
  async call({ name, args }) {
    const result = await client.callTool({ name, arguments: args })
    return { result: { isError: result.isError === true, content: result.content } }
  },
  close: async () => (await client?.close(), {}),
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line)
  if (!ops[request.op]) return send({ id: request.id, ok: false, unsupported: true, error: `this driver does not support "${request.op}"` })
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    send({ id: request.id, ok: false, error: String(error?.message ?? error), ...(request.op === 'connect' ? { features: ['auth'] } : {}) })
  }
})
