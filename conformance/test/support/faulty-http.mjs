// The faulty server over Streamable HTTP, stateless and JSON-only, otherwise by the transport's
// rules (202 for notifications, 405 for GET, 403 for a foreign Origin, 400 for an unknown
// MCP-Protocol-Version or a batch). Faults as in faulty-core.mjs; a hang answers nothing, ever.
import { createServer } from 'node:http'
import { FAULTS, respond } from './faulty-core.mjs'

const KNOWN = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']

export async function startFaultyHttp(faultList = []) {
  const faults = new Set(faultList)
  for (const fault of faults) if (!(fault in FAULTS)) throw new Error(`unknown fault ${fault}`)
  const server = createServer((req, res) => void handle(req, res, faults))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

async function handle(req, res, faults) {
  const origin = req.headers.origin
  if (origin !== undefined && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin)) return void res.writeHead(403).end()
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end()
  const version = req.headers['mcp-protocol-version']
  if (typeof version === 'string' && !KNOWN.includes(version)) return void res.writeHead(400).end()
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const message = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  if (Array.isArray(message)) return void res.writeHead(400).end()
  if (message.id === undefined) return void res.writeHead(202).end()
  // Progress and other notifications are dropped: a JSON answer carries the response alone.
  const answer = respond(message, faults).find((out) => !Buffer.isBuffer(out) && out.method === undefined)
  if (answer === undefined) return
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
}
