// A server on the MCP TypeScript SDK v2 (@modelcontextprotocol/server), as its authors write one:
// one factory, served over stdio or Streamable HTTP, modern-only (`reject`) or dual-era, for the
// plugin's tests and the kit's alike (conformance/test/server-modern.test.ts), and its
// legacy twin on the v1 SDK with the same tools: echo, and (v2 only) ask, which asks the client
// for input the 2026-07-28 way (an input_required result).
/* global Response -- a web-standard global of Node 20, which the shared .mjs globals list does not name */
import { appendFileSync, readFileSync } from 'node:fs'
import { listenFetch } from './fetch-listener.mjs'
import { createMcpHandler, inputRequired, localhostAllowedOrigins, McpServer, originValidationResponse } from '@modelcontextprotocol/server'
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

/** Faults that rewrite one answer of the real server, so a kit test can see a check catch that breach. */
export const FAULTS = {
  'discover-no-ttl': 'server/discover answers without ttlMs',
  'discover-not-found': 'server/discover answers -32601 Method not found (HTTP 404)',
  'unsupported-status-200': 'the unsupported-version error comes with HTTP 200',
  'bare-refusal': 'the refusal of initialize names no supported version',
}

/**
 * Streamable HTTP on 127.0.0.1: createMcpHandler behind node:http. `legacy: 'reject'` speaks only
 * 2026-07-28; 'stateless' (the SDK's default) is dual-era. As the SDK's docs have a server author
 * do, an Origin that is not localhost's is refused (403). `seen` counts the JSON-RPC methods the
 * server was sent.
 */
export async function startV2Http({ legacy = 'reject', fault } = {}) {
  if (fault !== undefined && !(fault in FAULTS)) throw new Error(`unknown fault ${fault}`)
  const handler = createMcpHandler(factory, { legacy })
  const seen = new Map()
  const listener = await listenFetch(handler, async (request, text) => {
    const method = safeParse(text)?.method
    if (typeof method === 'string') seen.set(method, (seen.get(method) ?? 0) + 1)
    const refused = originValidationResponse(request, localhostAllowedOrigins())
    return refused ?? (await rewrite(await handler.fetch(request), text, fault))
  })
  return { ...listener, seen }
}

async function rewrite(response, requestText, fault) {
  if (!fault) return response
  const sent = safeParse(requestText)
  const method = sent?.method
  // The faults of server/discover touch the probe for 2026-07-28 only, not the one for a made-up revision.
  const modernProbe = method === 'server/discover' && sent?.params?._meta?.['io.modelcontextprotocol/protocolVersion'] === '2026-07-28'
  const json = (status, value) => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } })
  if (fault === 'discover-not-found' && modernProbe) {
    return json(404, { jsonrpc: '2.0', id: sent.id, error: { code: -32601, message: 'Method not found' } })
  }
  const type = response.headers.get('content-type') ?? ''
  if (!type.includes('application/json')) return response
  const answer = safeParse(await response.text())
  if (fault === 'discover-no-ttl' && modernProbe && answer?.result) delete answer.result.ttlMs
  if (fault === 'unsupported-status-200' && method === 'server/discover' && answer?.error?.code === -32022) return json(200, answer)
  if (fault === 'bare-refusal' && method === 'initialize' && answer?.error) answer.error = { code: answer.error.code, message: 'Bad Request' }
  return json(response.status, answer)
}

function safeParse(text) {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

// `node v2-server.mjs stdio reject|serve|legacy|@FILE [log]` (serve: the SDK's default, dual-era): the same servers over stdio (@FILE:
// the mode is read from FILE at start, so that a test can swap the server behind a command). With
// a log file, every line the server reads is appended to it, across the processes of a test.
if (process.argv[2] === 'stdio') {
  const [given = 'reject', log] = process.argv.slice(3)
  const mode = given.startsWith('@') ? readFileSync(given.slice(1), 'utf8').trim() : given
  if (log) process.stdin.on('data', (chunk) => appendFileSync(log, chunk))
  if (mode === 'legacy') await legacyFactory().connect(new StdioServerTransport())
  else serveStdio(factory, { legacy: mode })
}
