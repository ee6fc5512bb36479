// A server on the MCP TypeScript SDK v2 (@modelcontextprotocol/server), as its authors write one:
// one factory, served over stdio or Streamable HTTP, modern-only (`reject`) or dual-era, and its
// legacy twin on the v1 SDK with the same tools: echo, and (v2 only) ask, which asks the client
// for input the 2026-07-28 way (an input_required result).
/* global Request -- a web-standard global of Node 20, which the shared .mjs globals list does not name */
import { appendFileSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { McpServer as LegacyServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import * as z from 'zod'

export function factory() {
  const server = new McpServer({ name: 'v2-era', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }))
  server.registerTool('ask', { description: 'Asks the client to confirm', inputSchema: z.object({}) }, async () =>
    inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Really?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }) } }),
  )
  // Over stdio one server lives as long as its child: a call of grow adds a tool, which the server
  // announces with notifications/tools/list_changed (on 2026-07-28, through subscriptions/listen).
  server.registerTool('grow', { description: 'Adds the tool late', inputSchema: z.object({}) }, async () => {
    server.registerTool('late', { description: 'Added by grow', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'late' }] }))
    return { content: [{ type: 'text', text: 'grown' }] }
  })
  return server
}

/** The same echo on the v1 SDK: a server of the legacy era only. */
export function legacyFactory() {
  const server = new LegacyServer({ name: 'v1-era', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }))
  return server
}

/** Streamable HTTP on 127.0.0.1; `seen` counts the JSON-RPC methods the server was sent. */
export async function startV2Http({ legacy = 'reject' } = {}) {
  const handler = createMcpHandler(factory, { legacy })
  const seen = new Map()
  const server = createServer(async (req, res) => {
    try {
      const chunks = []
      for await (const chunk of req) chunks.push(chunk)
      const body = Buffer.concat(chunks)
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
      if (hasBody) {
        try {
          const method = JSON.parse(body.toString('utf8')).method
          if (typeof method === 'string') seen.set(method, (seen.get(method) ?? 0) + 1)
        } catch {
          // Not JSON: nothing to count; the handler answers it.
        }
      }
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, ...(hasBody ? { body } : {}) })
      const response = await handler.fetch(request)
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (response.body) for await (const chunk of response.body) res.write(chunk)
      res.end()
    } catch (error) {
      res.writeHead(500).end(String(error))
    }
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await handler.close()
    },
  }
}

// `node v2-server.mjs stdio reject|serve|legacy|@FILE [log]`: the same servers over stdio (@FILE:
// the mode is read from FILE at start, so that a test can swap the server behind a command). With
// a log file, every line the server reads is appended to it, across the processes of a test.
if (process.argv[2] === 'stdio') {
  const [given = 'reject', log] = process.argv.slice(3)
  const mode = given.startsWith('@') ? readFileSync(given.slice(1), 'utf8').trim() : given
  if (log) process.stdin.on('data', (chunk) => appendFileSync(log, chunk))
  if (mode === 'legacy') await legacyFactory().connect(new StdioServerTransport())
  else serveStdio(factory, { legacy: mode })
}
