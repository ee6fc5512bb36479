import { describe, expect, it } from 'vitest'
import { startHttpFixture, type BehaviourInput } from '../src/index.ts'

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** One raw initialize POST; resolves once its headers arrived. */
const post = (url: string, signal?: AbortSignal, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(INITIALIZE), signal })

async function logOf(behaviour: BehaviourInput, talk: (url: string) => Promise<void>) {
  const fixture = await startHttpFixture(behaviour, { memoryWire: true })
  try {
    await talk(fixture.url)
  } finally {
    await fixture.close()
  }
  return fixture.wire!.http
}

describe('the HTTP log', () => {
  it('marks a new session once the initialize answer carrying its id began', async () => {
    const http = await logOf({ tools: [{ name: 'echo' }] }, async (url) => {
      const response = await post(url)
      await response.text()
    })
    expect(http).toEqual([{ method: 'POST', path: '/mcp', accept: 'application/json, text/event-stream', rpc: 'initialize', status: 200, newSession: expect.any(String) }])
  })

  it('opens no session for an initialize that was never answered, though its headers carried an id', async () => {
    const http = await logOf({ tools: [{ name: 'echo' }], crash: { hangOn: ['initialize'] } }, async (url) => {
      const controller = new AbortController()
      const response = await post(url, controller.signal)
      // The headers did arrive, with an id: what the client never got is an answer.
      expect(response.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/)
      controller.abort()
      // A fallback probe without a session header is then no breach of a session rule.
      await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream' } }).then((r) => r.text())
    })
    // The abandoned attempt is logged when its stream ends (which may be after the GET's answer).
    expect(http).toHaveLength(2)
    expect(http).toContainEqual({ method: 'POST', path: '/mcp', accept: 'application/json, text/event-stream', rpc: 'initialize', status: 200 })
    expect(http).toContainEqual({ method: 'GET', path: '/mcp', accept: 'text/event-stream', status: 400 })
  })

  it('answers initialize with the scripted protocolVersion, and logs the version header a request carried', async () => {
    let answered: unknown
    const http = await logOf({ protocolVersion: '2025-06-18', tools: [{ name: 'echo' }] }, async (url) => {
      const response = await post(url)
      answered = JSON.parse(/data: (.*)/.exec(await response.text())![1]!)
      const session = response.headers.get('mcp-session-id')!
      const headers = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }
      await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then((r) => r.text())
    })
    expect(answered).toMatchObject({ result: { protocolVersion: '2025-06-18' } })
    expect(http[1]).toMatchObject({ rpc: 'notifications/initialized', status: 202, protocolVersion: '2025-06-18' })
  })

  it('names the JSON-RPC method of a POST refused before any JSON-RPC was read', async () => {
    const http = await logOf({ tools: [{ name: 'echo' }], http: { auth: { header: 'authorization', value: 'Bearer right' } } }, async (url) => {
      await (await post(url, undefined, { authorization: 'Bearer wrong' })).text()
    })
    expect(http).toEqual([{ method: 'POST', path: '/mcp', accept: 'application/json, text/event-stream', rpc: 'initialize', status: 401 }])
  })
})
