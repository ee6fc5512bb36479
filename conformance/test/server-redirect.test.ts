/**
 * An HTTP server that redirects its endpoint: a same-origin redirect is followed (no spec
 * sentence forbids one, and the SDK's client follows it); one to another origin is not followed
 * and is reported as what happened, not as a breach of initialize's MUST.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runServerSuite } from '../src/server/run.ts'

/** A minimal JSON-RPC endpoint at /mcp2; /mcp answers 307 to `location(port)`. */
function start(location: (port: number) => string): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer((req, res) => {
    if (req.url === '/mcp') {
      res.writeHead(307, { location: location((server.address() as AddressInfo).port) }).end()
      return
    }
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end()
      const m = JSON.parse(body) as { id?: number; method: string }
      if (m.id === undefined) return void res.writeHead(202).end()
      const result = m.method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'r', version: '1' } } : m.method === 'ping' ? {} : undefined
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(result ? { jsonrpc: '2.0', id: m.id, result } : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo
    resolve({ server, url: `http://127.0.0.1:${port}/mcp`, port })
  }))
}

let same: Awaited<ReturnType<typeof start>>
let other: Awaited<ReturnType<typeof start>>
let cross: Awaited<ReturnType<typeof start>>
beforeAll(async () => {
  same = await start(() => '/mcp2')
  other = await start(() => '/mcp2')
  cross = await start(() => `http://127.0.0.1:${other.port}/mcp2`)
})
afterAll(async () => {
  for (const s of [same, other, cross]) {
    s.server.closeAllConnections()
    await new Promise((resolve) => s.server.close(resolve))
  }
})

describe('a redirected endpoint', () => {
  it('same origin: followed, initialize and ping pass, no check names the redirect', async () => {
    const suite = await runServerSuite({ kind: 'http', url: same.url, headers: {} }, { requestTimeoutMs: 3000 })
    expect(suite.checks.find((c) => c.id === 'lifecycle/initialize')?.status).toBe('pass')
    expect(suite.checks.find((c) => c.id === 'lifecycle/ping')?.status).toBe('pass')
    // (This minimal server checks neither Origin nor the version header: those fail, rightly.)
    expect(suite.checks.filter((c) => /\b30[1-8]\b|redirect/.test(c.message)).map((c) => `${c.id}: ${c.message}`)).toEqual([])
  })

  it('another origin: not followed, and said so', async () => {
    const suite = await runServerSuite({ kind: 'http', url: cross.url, headers: {} }, { requestTimeoutMs: 3000 })
    const init = suite.checks.find((c) => c.id === 'lifecycle/initialize')!
    // Not a verdict on the server (no sentence forbids redirects): the kit could not judge it.
    expect(init.status).toBe('error')
    expect(init.message).toContain(`redirect to another origin (http://127.0.0.1:${other.port}), which the kit does not follow`)
  })
})
