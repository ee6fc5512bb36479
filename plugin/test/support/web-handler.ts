import { randomUUID } from 'node:crypto'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'

/**
 * A socket-less Streamable HTTP endpoint, `(Request) => Response`, so msw can host a real MCP
 * server inside its handler (msw 2 hangs on passthrough to real sockets) and inject faults first.
 */
export function webHandler(factory: () => McpServer | Server) {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>()
  const handle = async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id')
    let transport = id ? sessions.get(id) : undefined
    if (!transport) {
      if (id) return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }), { status: 404 })
      const created = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      })
      await factory().connect(created)
      transport = created
    }
    return transport.handleRequest(request)
  }
  return { handle, sessions, expire: (id: string) => sessions.delete(id) }
}
