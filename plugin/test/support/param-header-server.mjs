// A modern-only server on the MCP TypeScript SDK v2 (@modelcontextprotocol/server) whose tools mark
// parameters with x-mcp-header (SEP-2243, MCP 2026-07-28): the SDK's own HTTP entry checks that a
// tools/call carries the Mcp-Param-* headers its body implies (-32020 HeaderMismatch otherwise).
// `calls` keeps the Mcp-Param-* headers each tools/call arrived with, as the wire carried them.
// One tool's annotation is invalid (on a number): a client over Streamable HTTP must exclude it.
/* global Request */
import { createServer } from 'node:http'
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
  const server = createServer(async (req, res) => {
    try {
      const chunks = []
      for await (const chunk of req) chunks.push(chunk)
      const body = Buffer.concat(chunks)
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
      if (req.headers['mcp-method'] === 'tools/call') {
        calls.push(Object.fromEntries(Object.entries(req.headers).filter(([name]) => name.startsWith('mcp-param-'))))
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
    calls,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await handler.close()
    },
  }
}
