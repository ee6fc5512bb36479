/**
 * Servers for the server-mode tests: real ones (server-everything over HTTP) and small
 * misbehaving ones — an SDK low-level Server over in-process HTTP, a raw node:http JSON-RPC
 * handler, and a raw stdio script — each with switches for exactly one fault at a time.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { CheckStatus, SuiteResult } from '../src/model.ts'
import { runServerSuite, type ServerRunOptions } from '../src/server/run.ts'
import { startModernServer } from './fixtures/modern-server/index.mjs'

const require = createRequire(import.meta.url)
export const serverEntry = (name: string) => require.resolve(`@modelcontextprotocol/${name}/dist/index.js`)

/** id → status of every check, for whole-suite comparisons. */
export function statuses(suite: SuiteResult): Record<string, CheckStatus> {
  return Object.fromEntries(suite.checks.map((c) => [c.id, c.status]))
}

/** The checks whose status differs from the control run's, with the new status. */
export function delta(control: SuiteResult, variant: SuiteResult): Record<string, CheckStatus> {
  const before = statuses(control)
  return Object.fromEntries(variant.checks.filter((c) => before[c.id] !== c.status).map((c) => [c.id, c.status]))
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function listen(server: HttpServer): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** server-everything over Streamable HTTP on a free port; ready when it says it is listening. */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess; close: () => Promise<void> }> {
  const port = await freePort()
  const child = spawn(process.execPath, [serverEntry('server-everything'), 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    const errLines = createInterface({ input: child.stderr! })
    const onLine = (line: string) => {
      if (line.includes(`listening on port ${port}`)) resolve()
    }
    lines.on('line', onLine)
    errLines.on('line', onLine)
    child.once('exit', (code) => reject(new Error(`server-everything exited early (${code})`)))
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    close: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** An SDK low-level Server per session behind node:http, with a proper 404 for unknown sessions. */
export async function startSdkHttp(build: () => Server): Promise<{ url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const server = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id']
    if (typeof id === 'string') {
      const transport = sessions.get(id)
      if (!transport) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"}}')
      return void (await transport.handleRequest(req, res))
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
      enableDnsRebindingProtection: true,
      allowedOrigins: ['http://127.0.0.1'],
    })
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    await build().connect(transport)
    await transport.handleRequest(req, res)
  })
  return listen(server)
}

export type RawHttpFault = 'none' | 'notification-200' | 'text-plain' | 'hang-tools-list' | 'accept-batch' | 'no-origin-check' | 'server-request' | 'reply-200'

/** A hand-written JSON-RPC-over-HTTP server that gets every transport rule right unless told one fault. */
export async function startRawHttp(fault: RawHttpFault = 'none'): Promise<{ url: string; close: () => Promise<void> }> {
  const sessions = new Set<string>()
  const server = createServer((req, res) => void handleRaw(req, res, fault, sessions))
  return listen(server)
}

async function handleRaw(req: IncomingMessage, res: ServerResponse, fault: RawHttpFault, sessions: Set<string>): Promise<void> {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): void =>
    void res.writeHead(status, { 'content-type': fault === 'text-plain' && status === 200 ? 'text/plain' : 'application/json', ...headers }).end(JSON.stringify(body))
  const origin = req.headers.origin
  if (fault !== 'no-origin-check' && origin !== undefined && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin)) return json(403, { jsonrpc: '2.0', error: { code: -32000, message: 'forbidden origin' } })
  const sid = req.headers['mcp-session-id']
  if (req.method === 'DELETE') {
    if (typeof sid !== 'string' || !sessions.has(sid)) return void res.writeHead(404).end()
    sessions.delete(sid)
    return void res.writeHead(204).end()
  }
  if (req.method !== 'POST') return void res.writeHead(405).end()
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
  if (Array.isArray(body)) {
    if (fault !== 'accept-batch') return json(400, { jsonrpc: '2.0', error: { code: -32600, message: 'batches are not supported' } })
    return json(200, body.map((m: { id: unknown; method: string }) => ({ jsonrpc: '2.0', id: m.id, result: rawResult(m.method, {}) ?? {} })))
  }
  const message = body as { id?: string | number; method: string; params?: Record<string, unknown> }
  if (message.method === 'initialize') {
    const id = randomUUID()
    sessions.add(id)
    return json(200, { jsonrpc: '2.0', id: message.id, result: rawResult('initialize', message.params ?? {}) }, { 'mcp-session-id': id })
  }
  if (typeof sid !== 'string') return json(400, { jsonrpc: '2.0', error: { code: -32000, message: 'missing session' } })
  if (!sessions.has(sid)) return json(404, { jsonrpc: '2.0', error: { code: -32001, message: 'session not found' } })
  const version = req.headers['mcp-protocol-version']
  if (typeof version === 'string' && !KNOWN.includes(version)) return json(400, { jsonrpc: '2.0', error: { code: -32000, message: 'unsupported protocol version' } })
  if (message.id === undefined) return void (fault === 'notification-200' ? json(200, {}) : res.writeHead(202).end())
  // A response (the client's answer to a request of ours) is accepted like a notification, unless told otherwise.
  if (message.method === undefined) return void (fault === 'reply-200' ? json(200, { jsonrpc: '2.0', result: {} }) : res.writeHead(202).end())
  // server-request, reply-200: tools/list is answered on an event stream that first asks the client for a ping.
  if (message.method === 'tools/list' && (fault === 'server-request' || fault === 'reply-200')) {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write(`id: 1\ndata: \n\n`)
    res.write(`id: 2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'server-ping-1', method: 'ping' })}\n\n`)
    return void res.end(`id: 3\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: rawResult('tools/list', {}) })}\n\n`)
  }
  if (message.method === 'tools/list' && fault === 'hang-tools-list') return
  const result = rawResult(message.method, message.params ?? {})
  if (result === undefined) return json(200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no ${message.method}` } })
  if ('error' in result) return json(200, { jsonrpc: '2.0', id: message.id, error: result.error })
  return json(200, { jsonrpc: '2.0', id: message.id, result })
}

const KNOWN = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']

/** The raw servers' one behaviour: a single "echo" tool, errors done by the book. */
function rawResult(method: string, params: Record<string, unknown>): Record<string, unknown> | undefined {
  switch (method) {
    case 'initialize': {
      const requested = params.protocolVersion as string
      return { protocolVersion: KNOWN.includes(requested) ? requested : KNOWN[0], capabilities: { tools: {} }, serverInfo: { name: 'raw-http', version: '1.0.0' } }
    }
    case 'ping':
      return {}
    case 'tools/list':
      return { tools: [ECHO] }
    case 'tools/call': {
      if (params.name !== 'echo') return { error: { code: -32602, message: `Unknown tool: ${String(params.name)}` } }
      const text = (params.arguments as Record<string, unknown> | undefined)?.text
      if (typeof text !== 'string') return { content: [{ type: 'text', text: 'text must be a string' }], isError: true }
      return { content: [{ type: 'text', text }] }
    }
    default:
      return undefined
  }
}

const ECHO = { name: 'echo', description: 'Echoes text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }

export type StdioFault = '--garbage' | '--ignore-eof' | '--orphan' | '--crash-on-tools-list' | '--silent-init' | '--notify-before-init'

/** A raw stdio MCP server written to `dir`; faults are switched on by argv flags. */
export async function writeRawStdioServer(dir: string): Promise<string> {
  const path = join(dir, 'raw-stdio-server.mjs')
  await writeFile(path, RAW_STDIO_SOURCE, 'utf8')
  return path
}

const RAW_STDIO_SOURCE = `
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
const flags = new Set(process.argv.slice(2))
const KNOWN = ${JSON.stringify(KNOWN)}
const ECHO = ${JSON.stringify(ECHO)}
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n')
if (flags.has('--garbage')) process.stdout.write('server starting (a stray console.log)\\n')
if (flags.has('--orphan')) spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
if (flags.has('--ignore-eof')) setInterval(() => {}, 1000)
const lines = createInterface({ input: process.stdin })
lines.on('close', () => { if (!flags.has('--ignore-eof')) process.exit(0) })
lines.on('line', (line) => {
  const m = JSON.parse(line)
  if (m.id === undefined || m.method === undefined) return
  if (m.method === 'tools/list' && flags.has('--crash-on-tools-list')) process.exit(3)
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result })
  const fail = (code, message) => send({ jsonrpc: '2.0', id: m.id, error: { code, message } })
  switch (m.method) {
    case 'initialize':
      if (flags.has('--silent-init')) return
      // Declared, so the only rule the early notification breaks is that initialization comes first.
      if (flags.has('--notify-before-init')) send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
      return reply({ protocolVersion: KNOWN.includes(m.params.protocolVersion) ? m.params.protocolVersion : KNOWN[0], capabilities: { tools: flags.has('--notify-before-init') ? { listChanged: true } : {} }, serverInfo: { name: 'raw-stdio', version: '1.0.0' } })
    case 'ping': return reply({})
    case 'tools/list':
      reply({ tools: [ECHO] })
      if (flags.has('--garbage')) process.stdout.write(JSON.stringify({ log: 'valid JSON, but not JSON-RPC' }) + '\\n')
      return
    case 'tools/call':
      if (m.params.name !== 'echo') return fail(-32602, 'Unknown tool: ' + m.params.name)
      if (typeof m.params.arguments?.text !== 'string') return reply({ content: [{ type: 'text', text: 'text must be a string' }], isError: true })
      return reply({ content: [{ type: 'text', text: m.params.arguments.text }] })
    default: return fail(-32601, 'Method not found: ' + m.method)
  }
})
`

/** One server-mode run over HTTP against the scripted 2026-07-28 server, with one breach or none. */
/** `fixture.prompts`: the fixture declares prompts and serves its prompt list (a prompt-* breach implies it); `fixture.paged`: on two pages. */
export async function runModernServer(breach: string | undefined, options: Partial<ServerRunOptions>, fixture: { prompts?: boolean; paged?: boolean; params?: boolean } = {}): Promise<SuiteResult> {
  const server = await startModernServer({ ...(breach ? { breach } : {}), ...fixture })
  try {
    return await runServerSuite({ kind: 'http', url: server.url, headers: {} }, options)
  } finally {
    await server.close()
  }
}
