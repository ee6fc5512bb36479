#!/usr/bin/env node
/* global fetch, Headers */
// conformance/drivers/sdk-client.mjs with ONE behaviour switched on by argv[2] (from the audit of
// judging any client): correct clients the kit must not fail, and faults it must judge honestly.
// Without an argument it behaves like the reference driver.
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const fault = process.argv[2] ?? 'none'
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
const calls = new Map()
let client
let transport
let options = {}
let server

async function listAll() {
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

// Wraps transport.send / onmessage so single messages can be rewritten on the way out.
function wrap(t) {
  const raw = t.send.bind(t)
  const idQueue = [] // for dup-id: rewritten id -> original ids, FIFO
  t.send = async (message, o) => {
    const m = { ...message }
    if (fault === 'pipeline-list' && m.method === 'initialize') {
      await raw(m, o)
      return raw({ jsonrpc: '2.0', id: 'early', method: 'tools/list', params: {} })
    }
    if (fault === 'list-before-initialized' && m.method === 'notifications/initialized') {
      await raw({ jsonrpc: '2.0', id: 'early', method: 'tools/list', params: {} })
      await new Promise((r) => setTimeout(r, 200))
    }
    if (fault === 'notification-with-id' && m.method === 'notifications/initialized') m.id = 77
    if (fault === 'jsonrpc-1' && m.method === 'tools/call') m.jsonrpc = '1.0'
    if (fault === 'null-id' && m.method === 'tools/call') { idQueue.push(m.id); m.id = null }
    if (fault === 'dup-id' && m.method !== undefined && m.id !== undefined && m.method !== 'initialize') { idQueue.push(m.id); m.id = 1 }
    if (fault === 'bad-version' && m.method === 'initialize') m.params = { ...m.params, protocolVersion: '2024-01-01' }
    return raw(m, o)
  }
  const startRaw = t.start.bind(t)
  t.start = async () => {
    const on = t.onmessage
    t.onmessage = (message, extra) => {
      if ((fault === 'dup-id' && message.id === 1 && idQueue.length) || (fault === 'null-id' && message.id === null && idQueue.length)) message = { ...message, id: idQueue.shift() }
      on?.(message, extra)
    }
    return startRaw()
  }
  return t
}

function makeHttp(url, extra = {}) {
  const fetchFn = async (input, init = {}) => {
    const headers = new Headers(init.headers)
    if (fault === 'no-accept') headers.delete('accept')
    if (fault === 'wrong-version-header' && headers.has('mcp-protocol-version')) headers.set('mcp-protocol-version', '2025-03-26')
    return fetch(input, { ...init, headers })
  }
  return new StreamableHTTPClientTransport(new URL(url), { fetch: fetchFn, ...extra })
}

async function connectOnce() {
  client = new Client({ name: 'faulty-driver', version: '1.0.0' }, {
    listChanged: { tools: { autoRefresh: false, onChanged: () => listAll().then((tools) => send({ event: 'tools', tools }), () => {}) } },
  })
  if (server.transport === 'stdio') {
    let env = server.env
    if (fault === 'well-known-secrets') {
      env = { ...getDefaultEnvironment(), ...server.env }
      for (const k of ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY']) if (process.env[k]) env[k] = process.env[k]
    }
    if (fault === 'detached-server') {
      // The client starts its server in a new session and never stops it.
      const t = new StdioClientTransport({ command: 'setsid', args: [server.command, ...server.args], env })
      transport = wrap(t)
    } else transport = wrap(new StdioClientTransport({ command: server.command, args: server.args, env }))
  } else transport = wrap(makeHttp(server.url))
  await client.connect(transport, { timeout: options.connectTimeoutMs })
  // list-twice (a CORRECT client): warms its tool cache right after connecting, then lists again when asked.
  if (fault === 'list-twice') await listAll()
  if (fault === 'cancel-initialize') await client.notification({ method: 'notifications/cancelled', params: { requestId: 0, reason: 'x' } })
  if (fault === 'cancel-unknown') await client.notification({ method: 'notifications/cancelled', params: { requestId: 4242, reason: 'x' } })
}

const ops = {
  async connect({ server: s, options: given }) {
    options = given
    server = s
    await connectOnce()
    return { features: ['listChanged'] }
  },
  // hide-add (a policy, not a violation): the client does not offer the tool "add" to its model.
  list: async () => ({ tools: (await listAll()).filter((t) => !(fault === 'hide-add' && t.name === 'add')) }),
  async call({ id, name, args }) {
    const controller = new AbortController()
    calls.set(id, controller)
    try {
      const go = () => client.callTool({ name, arguments: args }, undefined, { signal: controller.signal, timeout: options.callTimeoutMs })
      if (fault === 'abort-waits') {
        // On abort: tell the server (cancelled), but only give up at the call timeout (3 s), not at once.
        const reqId = client._requestMessageId
        controller.signal.addEventListener('abort', () => void client.notification({ method: 'notifications/cancelled', params: { requestId: reqId, reason: 'the caller aborted the call' } }))
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 3000 })
        return { result: { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent } }
      }
      let result
      try {
        result = await go()
      } catch (error) {
        // retry-after-404: a correct client that, on a 404 for its session, starts a new session
        // (new initialize without the session id) and retries the call in it.
        // stale-session-reinit: the same, but the new initialize still carries the dead session id.
        if ((fault === 'retry-after-404' || fault === 'stale-session-reinit') && /404|Session not found/.test(String(error?.message))) {
          const old = transport.sessionId
          await client.close().catch(() => {})
          client = new Client({ name: 'faulty-driver', version: '1.0.0' })
          transport = makeHttp(server.url, fault === 'stale-session-reinit' ? { sessionId: old } : {})
          await client.connect(transport)
          if (fault === 'stale-session-reinit') throw error
          result = await go()
        } else throw error
      }
      return { result: { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent } }
    } finally {
      calls.delete(id)
    }
  },
  abort: async ({ call }) => (calls.get(call)?.abort('the caller aborted the call'), {}),
  close: async () => {
    if (fault === 'detached-server') return {}
    await client?.close()
    return {}
  },
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const request = JSON.parse(line)
  try {
    send({ id: request.id, ok: true, ...(await ops[request.op](request)) })
  } catch (error) {
    send({ id: request.id, ok: false, error: String(error?.message ?? error) })
  }
})
