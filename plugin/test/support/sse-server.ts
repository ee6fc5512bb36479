import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { afterTest } from './cleanup.ts'
import { listenOnLoopback, readJson, type InProcessServer, type ServeOptions } from './http-server.ts'

export interface LegacySseServer extends InProcessServer {
  /** Every request line (`GET /sse`, `POST /sse`, `POST /messages`), in order. */
  requests: string[]
  /** Ends every open event stream, as a proxy timing out or a server restart would. */
  dropStreams(): void
}

/**
 * A server that speaks only the 2024-11-05 HTTP+SSE transport, through the SDK's own (deprecated)
 * SSEServerTransport: GET /sse opens the event stream and names the POST endpoint; a POST to /sse,
 * which a Streamable HTTP client tries first, is answered 405 as such servers do.
 */
export async function serveLegacySse(factory: () => McpServer | Server, options: ServeOptions = {}): Promise<LegacySseServer> {
  const sessions = new Map<string, SSEServerTransport>()
  const streams = new Set<ServerResponse>()
  const received: InProcessServer['received'] = []
  const requests: string[] = []
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    requests.push(`${req.method} ${url.pathname}`)
    if (options.guard && (await options.guard(req, res))) return
    if (url.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res)
      sessions.set(transport.sessionId, transport)
      streams.add(res)
      res.on('close', () => {
        streams.delete(res)
        sessions.delete(transport.sessionId)
      })
      await factory().connect(transport)
      return
    }
    if (url.pathname === '/messages' && req.method === 'POST') {
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '')
      if (!transport) return void res.writeHead(404).end('unknown session')
      const body = await readJson(req)
      received.push(body as { method?: string })
      await transport.handlePostMessage(req, res, body)
      return
    }
    res.writeHead(url.pathname === '/sse' ? 405 : 404, { allow: 'GET' }).end()
  }
  const { port, close } = await listenOnLoopback(handle, () => sessions.values())
  const dropStreams = () => {
    for (const stream of streams) stream.destroy()
  }
  return afterTest<LegacySseServer>({ url: `http://127.0.0.1:${port}/sse`, received, requests, sessions: new Map(), dropStreams, close }, (s) => s.close())
}
