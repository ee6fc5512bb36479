import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

export interface ScriptedTool {
  name: string
  inputSchema?: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  /** The exact result object sent back, whatever it contains. */
  result: Record<string, unknown>
}

/** A low-level MCP server that answers exactly what the test scripted, valid or not. */
export function scriptedToolServer(tools: ScriptedTool[]): () => Server {
  return () => {
    const server = new Server({ name: 'scripted', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: tools.map(({ name, inputSchema, outputSchema }) => ({
        name,
        inputSchema: inputSchema ?? { type: 'object' },
        ...(outputSchema ? { outputSchema } : {}),
      })) as never,
    }))
    // Server's own tools/call registration validates results; a hostile server does not, so the
    // handler goes in through the base Protocol and sends exactly what was scripted.
    Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, async (request) => {
      const tool = tools.find((t) => t.name === request.params.name)
      return (tool?.result ?? { isError: true, content: [{ type: 'text', text: 'no such tool' }] }) as never
    })
    return server
  }
}

/** Tiny real images: correct signatures, decodable base64. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
export const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]).toString('base64')
export const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]).toString('base64')

/**
 * A server whose tool list is whatever the test says it is right now, announced with
 * list_changed on `notify()`; a call answers "called <raw name>".
 */
export function changingListServer(list: () => unknown[]): { factory: () => Server; notify: () => Promise<void[]> } {
  const servers: Server[] = []
  const factory = () => {
    const s = new Server({ name: 'scripted', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } })
    s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: list() as never }))
    s.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `called ${request.params.name}` }] }))
    servers.push(s)
    return s
  }
  return { factory, notify: () => Promise.all(servers.map((s) => s.sendToolListChanged())) }
}
