import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { afterTest } from './cleanup.ts'

export interface InProcessServer {
  url: string
  /** Every JSON-RPC message the server received, in order. */
  received: Array<{ method?: string; params?: Record<string, unknown> }>
  sessions: Map<string, StreamableHTTPServerTransport>
  close(): Promise<void>
}

export interface ServeOptions {
  /** Sees every request first; resolves true when it answered it (an authorization server, say). */
  guard?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>
}

/** A real Streamable HTTP endpoint on 127.0.0.1 port 0, one MCP server instance per session; closed after the test. */
export async function serveHttp(factory: () => McpServer | Server, options: ServeOptions = {}): Promise<InProcessServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const received: InProcessServer['received'] = []
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (options.guard && (await options.guard(req, res))) return
    const id = req.headers['mcp-session-id']
    let transport = typeof id === 'string' ? sessions.get(id) : undefined
    if (!transport) {
      if (typeof id === 'string') {
        res.writeHead(404).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }))
        return
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, transport!),
      })
      transport.onclose = () => {
        if (transport?.sessionId) sessions.delete(transport.sessionId)
      }
      await factory().connect(transport)
    }
    const body = req.method === 'POST' ? await readJson(req) : undefined
    for (const message of Array.isArray(body) ? body : body ? [body] : []) received.push(message)
    await transport.handleRequest(req, res, body)
  }
  const { port, close } = await listenOnLoopback(handle, () => sessions.values())
  return afterTest({ url: `http://127.0.0.1:${port}/mcp`, received, sessions, close }, (s) => s.close())
}

/**
 * Serves `handle` on 127.0.0.1, port 0 (a 500 when it throws). `close` ends the transports still
 * open, every connection and the server, once however often it is called.
 */
export async function listenOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  transports: () => Iterable<{ close(): Promise<void> }>,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  let closed = false
  return {
    port,
    close: async () => {
      if (closed) return
      closed = true
      for (const transport of [...transports()]) await transport.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString()
  return text ? JSON.parse(text) : undefined
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
