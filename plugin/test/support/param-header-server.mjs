// A modern-only server on the MCP TypeScript SDK v2 (@modelcontextprotocol/server) whose tools mark
// parameters with x-mcp-header (SEP-2243, MCP 2026-07-28): the SDK's own HTTP entry checks that a
// tools/call carries the Mcp-Param-* headers its body implies (-32020 HeaderMismatch otherwise).
// `calls` keeps the Mcp-Param-* headers each tools/call arrived with, as the wire carried them.
// One tool's annotation is invalid (on a number): a client over Streamable HTTP must exclude it.
import { listenFetch } from './fetch-listener.mjs'
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server'

const object = (properties, required = []) => ({ type: 'object', properties, required })

export const TOOLS = {
  route: object(
    {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
      opts: object({ zone: { type: 'string', 'x-mcp-header': 'Zone' } }),
      query: { type: 'string' },
    },
    ['region', 'query'],
  ),
  score: object({ score: { type: 'number', 'x-mcp-header': 'Score' } }),
  plain: object({ text: { type: 'string' } }),
}

function factory() {
  const server = new McpServer({ name: 'param-headers', version: '1.0.0' }, { capabilities: { tools: {} } })
  for (const [name, schema] of Object.entries(TOOLS)) {
    server.registerTool(name, { description: `the ${name} tool`, inputSchema: fromJsonSchema(schema) }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }))
  }
  return server
}

export async function startParamHeaderServer() {
  const handler = createMcpHandler(factory, { legacy: 'reject' })
  const calls = []
  const listener = await listenFetch(handler, (request) => {
    if (request.headers.get('mcp-method') === 'tools/call') {
      calls.push(Object.fromEntries([...request.headers].filter(([name]) => name.startsWith('mcp-param-'))))
    }
    return handler.fetch(request)
  })
  return { ...listener, calls }
}
