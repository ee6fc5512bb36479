/* global Request -- a web-standard global of Node 20, which the shared .mjs globals list does not name */
import { createServer } from 'node:http'

/**
 * A fetch-style MCP handler (the SDK v2's createMcpHandler) served by node:http on 127.0.0.1.
 * `respond(request, text)` answers each request: `text` is its body as UTF-8, for a caller that
 * looks at the JSON-RPC inside. Resolves with the endpoint's URL and a close that ends every
 * connection, the listener and then the handler.
 */
export async function listenFetch(handler, respond = (request) => handler.fetch(request)) {
  const server = createServer(async (req, res) => {
    try {
      const chunks = []
      for await (const chunk of req) chunks.push(chunk)
      const body = Buffer.concat(chunks)
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, ...(hasBody ? { body } : {}) })
      const response = await respond(request, hasBody ? body.toString('utf8') : '')
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
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await handler.close()
    },
  }
}
