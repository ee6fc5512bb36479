import { getEventListeners } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { redactSecrets } from '@mcp-bridge/process'
import { ENVELOPE_BYTES } from '../src/json-rpc-message.ts'
import { fetchWithLimits } from '../src/response-limits.ts'
import { afterTest } from './support/cleanup.ts'

async function server() {
  const http = createServer((req, res) => {
    if (req.url === '/never') return // never answers
    if (req.url === '/error') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(50_000))
    if (req.url === '/big-json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(LIMIT + ENVELOPE_BYTES)}"`)
    if (req.url === '/big-event') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${'x'.repeat(LIMIT + ENVELOPE_BYTES)}\n\n`)
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: one\n\n')
      return // stays open
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  afterTest(http, (h) => {
    h.closeAllConnections()
    h.close()
  })
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`
}

const LIMIT = 1024
const boundedFetch = () => fetchWithLimits(fetch, { maxBytes: LIMIT, maxErrorChars: 2000, redact: redactSecrets })

/** The HTTP transports' fetch gives each request its own signal, released once its body ends. */
describe('request signals (fetchWithLimits)', () => {
  it('leaves no listener on the session signal once a response has been read', async () => {
    const base = await server()
    const session = new AbortController()
    const fetch = boundedFetch()
    for (let i = 0; i < 300; i++) {
      const response = await fetch(`${base}/json`, { signal: session.signal })
      expect(await response.json()).toEqual({ ok: true })
    }
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0)
  })

  it('releases a stream that is cancelled, and still aborts requests in flight', async () => {
    const base = await server()
    const session = new AbortController()
    const fetch = boundedFetch()
    const stream = await fetch(`${base}/stream`, { signal: session.signal })
    const reader = stream.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n')
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(1)
    await reader.cancel()
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0)

    const pending = fetch(`${base}/never`, { signal: session.signal })
    session.abort(new Error('transport closed'))
    await expect(pending).rejects.toThrow(/transport closed/)
  })

  it('releases the signal of an error answer and of an answer abandoned for its size', async () => {
    const base = await server()
    const session = new AbortController()
    const fetch = boundedFetch()
    const error = await fetch(`${base}/error`, { signal: session.signal })
    expect(error.status).toBe(500)
    expect((await error.text()).length).toBeLessThan(2_100)
    await expect(fetch(`${base}/big-json`, { signal: session.signal }).then((r) => r.text())).rejects.toThrow(/limits.maxResultBytes/)
    const event = await fetch(`${base}/big-event`, { signal: session.signal })
    // What was over the limit was one message on the stream, maybe a request of the server's: the message says no more.
    await expect(event.text()).rejects.toThrow(/^a message on the stream that carries the server's answer exceeded limits\.maxResultBytes \(1024 bytes\); it was abandoned after \d+ bytes, with the rest of the stream$/)
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0)
  })
})
