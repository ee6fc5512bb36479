import { once } from 'node:events'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { redactSecrets } from '@mcp-bridge/process'
import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config.ts'
import { dialer, loadTransport } from '../src/transport.ts'
import { afterTest } from './support/cleanup.ts'

/** A server on 127.0.0.1 that records each request's path and headers, and refuses it (404). */
async function recordingServer() {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = []
  const server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers })
    request.resume()
    response.writeHead(404).end()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  afterTest(server, (s) => s.close())
  return { seen, port: (server.address() as AddressInfo).port }
}

async function firstRequest(url: string, headers: Record<string, string> = {}) {
  const { seen, port } = await recordingServer()
  const config = parseConfig({ transport: 'streamable-http', serverName: 'creds', url: url.replace('PORT', String(port)), headers })
  await loadTransport(config)
  const dial = await dialer(config, { onStderrLine: () => {}, onSecretLookingEnv: () => {}, redact: redactSecrets })
  const { transport } = dial.open()
  await transport.start()
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }).catch(() => {})
  await transport.close()
  dial.end()
  return seen[0]!
}

describe('credentials in an HTTP server url', () => {
  it('travel as an Authorization: Basic header, never in the request target', async () => {
    const request = await firstRequest('http://alice:s%3Acret@127.0.0.1:PORT/mcp')
    expect(request.url).toBe('/mcp')
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('alice:s:cret').toString('base64')}`)
  })

  it('give way to an Authorization header that is configured', async () => {
    const request = await firstRequest('http://alice:secret@127.0.0.1:PORT/mcp', { Authorization: 'Bearer configured' })
    expect(request.headers.authorization).toBe('Bearer configured')
  })
})
