/**
 * Raw node:http servers (real sockets, no mocks) for two HTTP verdicts: an event stream that is
 * primed but never carries its response (http/sse-resumption warns: the SSE stream SHOULD
 * eventually include the response), and a refusal of notifications/initialized with an HTTP
 * error status (http/notification-accepted: allowed by the spec, so information, not a failure).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import type { Revision } from '../src/server/spec.ts'

type Mode = 'sse-never' | 'refuse-initialized' | 'initialized-200'
const KNOWN = ['2025-11-25', '2025-06-18', '2025-03-26']

function start(mode: Mode): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET') return void res.writeHead(405).end()
    if (req.method === 'DELETE') return void res.writeHead(200).end()
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString()))
    req.on('end', () => {
      let m: { id?: number; method?: string; params?: { protocolVersion?: string } }
      try {
        m = JSON.parse(text)
      } catch {
        return void res.writeHead(400).end()
      }
      if (Array.isArray(m) || req.headers.origin) return void res.writeHead(Array.isArray(m) ? 400 : 403).end()
      if (m.id === undefined) {
        if (m.method === 'notifications/initialized' && mode === 'refuse-initialized') {
          return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'not accepted' } }))
        }
        if (m.method === 'notifications/initialized' && mode === 'initialized-200') return void res.writeHead(200).end()
        return void res.writeHead(202).end()
      }
      const reply = (result: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }))
      if (m.method === 'initialize') {
        const asked = m.params?.protocolVersion ?? ''
        return void reply({ protocolVersion: KNOWN.includes(asked) ? asked : KNOWN[0], capabilities: {}, serverInfo: { name: 'raw-http', version: '1.0.0' } })
      }
      if (mode === 'sse-never') {
        // Primed, then open and silent until the client gives up.
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        return void res.write('id: 1\ndata: \n\n')
      }
      if (m.method === 'ping') return void reply({})
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server })))
}

async function run(mode: Mode, revision?: Revision): Promise<SuiteResult> {
  const { url, server } = await start(mode)
  try {
    return await runServerSuite({ kind: 'http', url, headers: {} }, { requestTimeoutMs: 300, ...(revision ? { revision } : {}) })
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

const find = (suite: SuiteResult, id: string) => suite.checks.find((c) => c.id === id)!

describe('an event stream that never carries its response', () => {
  it('warns under 2025-11-25, quoting the sentence', async () => {
    const check = find(await run('sse-never'), 'http/sse-resumption')
    expect(check.status).toBe('warn')
    expect(check.message).toMatch(/^the event stream of ping.* stayed open without the JSON-RPC response until the kit's request timeout \(\d+ of \d+ event streams\)$/)
    expect(check.spec?.quote).toBe('The SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC request sent in the POST body.')
  })

  it('warns under 2025-06-18 too, by that revision’s own sentence', async () => {
    const check = find(await run('sse-never', '2025-06-18'), 'http/sse-resumption')
    expect(check.status).toBe('warn')
    expect(check.spec?.quote).toBe('The SSE stream SHOULD eventually include JSON-RPC response for the JSON-RPC request sent in the POST body.')
  })
})

describe('notifications/initialized', () => {
  it('refused with HTTP 400 is information quoting the refusal sentence, not a failure of the 202 rule', async () => {
    const check = find(await run('refuse-initialized'), 'http/notification-accepted')
    expect(check.status).toBe('skip')
    expect(check.message).toContain('Information')
    expect(check.message).toContain('refused with HTTP 400')
    expect(check.message).toContain('"If the server cannot accept the input, it MUST return an HTTP error status code (e.g., 400 Bad Request)."')
  })

  it('accepted with 200 instead of 202 still fails', async () => {
    expect(find(await run('initialized-200'), 'http/notification-accepted').status).toBe('fail')
  })
})
