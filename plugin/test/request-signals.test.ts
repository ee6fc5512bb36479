import { getEventListeners } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { fetchWithRequestSignals } from '../src/request-signals.ts'
import { afterTest } from './support/cleanup.ts'

async function server() {
  const http = createServer((req, res) => {
    if (req.url === '/never') return // never answers
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

describe('fetchWithRequestSignals', () => {
  it('leaves no listener on the session signal once a response has been read', async () => {
    const base = await server()
    const session = new AbortController()
    const fetch = fetchWithRequestSignals()
    for (let i = 0; i < 300; i++) {
      const response = await fetch(`${base}/json`, { signal: session.signal })
      expect(await response.json()).toEqual({ ok: true })
    }
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0)
  })

  it('releases a stream that is cancelled, and still aborts requests in flight', async () => {
    const base = await server()
    const session = new AbortController()
    const fetch = fetchWithRequestSignals()
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
})
