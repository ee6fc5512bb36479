import { getEventListeners } from 'node:events'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { redactSecrets } from '@mcp-bridge/process'
import { MALFORMED_MARK } from '../src/json-rpc-message.ts'
import { fetchWithLimits } from '../src/response-limits.ts'
import { afterTest } from './support/cleanup.ts'

/**
 * An SSE answer to a POSTed request that is only plain JSON-RPC messages ending with the response,
 * followed by the end of the stream, reaches the SDK as the equivalent JSON body (issue 20: the
 * SDK's event pipeline costs about 150 µs a call). Everything else reaches it as the stream the
 * server sent, byte for byte, and without waiting for more than the server has sent.
 */
const LIMIT = 4096
const answer = (id: number, text = 'hi') => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } })
const progress = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 1 } })
const event = (data: string) => `event: message\ndata: ${data}\n\n`

type Handler = (res: ServerResponse) => void

async function serve(handler: Handler) {
  const http = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' })
      handler(res)
    })
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  afterTest(http, (h) => {
    h.closeAllConnections()
    h.close()
  })
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`
}

function post(url: string, init: { signal?: AbortSignal; body?: string } = {}) {
  const oversized: unknown[] = []
  const fetch = fetchWithLimits(globalThis.fetch, { maxBytes: LIMIT, maxErrorChars: 2000, redact: redactSecrets, onOversized: (a) => void oversized.push(a) })
  const response = fetch(url, { method: 'POST', body: init.body ?? JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } }), signal: init.signal })
  return { response, oversized }
}

/** Reads a stream body until `until` matches what has arrived (or it ends). */
async function readUntil(body: ReadableStream<Uint8Array>, until: RegExp): Promise<string> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!until.test(text)) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  reader.releaseLock()
  return text
}

describe('an SSE answer to a request', () => {
  it('that is the response and then the end reaches the SDK as JSON, the same messages in the same order', async () => {
    const url = await serve((res) => res.end(`: comment\n\n${event(progress)}${event(answer(7))}`))
    const session = new AbortController()
    const response = await post(url, { signal: session.signal }).response
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('mcp-session-id')).toBe('s1')
    expect(await response.json()).toEqual([JSON.parse(progress), JSON.parse(answer(7))])
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0)
  })

  it.each([
    ['CRLF line ends', event(answer(7)).replaceAll('\n', '\r\n')],
    ['data over two lines, no event type', `data: {"jsonrpc":"2.0",\ndata: "id":7,"result":{}}\n\n`],
  ])('with %s is still plain JSON to the SDK', async (_, sent) => {
    const url = await serve((res) => res.end(sent))
    const response = await post(url).response
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual([expect.objectContaining({ jsonrpc: '2.0', id: 7, result: expect.any(Object) })])
  })

  it.each([
    ['an event id (resumption needs it)', `id: 1\n${event(answer(7))}`],
    ['a retry field', `retry: 1000\n${event(answer(7))}`],
    ['another event type', `event: other\ndata: ${answer(7)}\n\n`],
    ['a message the SDK would refuse that answers no request of this stream', event('{"jsonrpc":"1.0","id":8,"result":{}}')],
    ['no response to this request', event(answer(8))],
    ['an event after the response', `${event(answer(7))}${event(progress)}`],
    ['more than 16 KiB (a JSON.parse more costs more than the event pipeline saves)', event(answer(7, 'x'.repeat(20_000)))],
  ])('with %s reaches the SDK as the stream the server sent', async (_, sent) => {
    const url = await serve((res) => res.end(sent))
    const response = await post(url).response
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(await response.text()).toBe(sent)
  })

  it.each([
    ['a "result" that is an array', '{"jsonrpc":"2.0","id":7,"result":[1,2]}', '"result" is an array'],
    ['a "result" that is null', '{"jsonrpc":"2.0","id":7,"result":null}', '"result" is null'],
    ['"jsonrpc" 1.0', '{"jsonrpc":"1.0","id":7,"result":{}}', '"jsonrpc" is not "2.0"'],
    ['both "result" and "error"', '{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"x"}}', 'both "result" and "error"'],
  ])('that is an answer to this request with %s reaches the SDK as the error that fails the request at once', async (_, sent, problem) => {
    const url = await serve((res) => res.end(`${event(progress)}${event(sent)}`))
    const response = await post(url).response
    expect(response.headers.get('content-type')).toBe('application/json')
    const [first, second] = (await response.json()) as Array<Record<string, unknown>>
    expect(first).toEqual(JSON.parse(progress))
    expect(second).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: expect.stringContaining(problem), data: { [MALFORMED_MARK]: true } } })
  })

  it('does not hold a notification back until the response comes', async () => {
    let respond!: () => void
    const url = await serve((res) => {
      res.write(event(progress))
      respond = () => res.end(event(answer(7)))
    })
    const response = await post(url).response
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const body = response.body!
    expect(await readUntil(body, /progress/)).toBe(event(progress))
    respond()
    expect(await readUntil(body, /result/)).toBe(event(answer(7)))
  })

  it('hands over the response at once when the server keeps the stream open after it', async () => {
    const url = await serve((res) => res.write(event(answer(7))))
    const response = await post(url).response
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(await readUntil(response.body!, /result/)).toBe(event(answer(7)))
  })

  it('abandons an event over the limit while reading ahead, and answers the request with an error', async () => {
    const url = await serve((res) => res.end(event(answer(7, 'x'.repeat(LIMIT + 1024 * 1024)))))
    const { response, oversized } = post(url)
    await expect((await response).text()).rejects.toThrow(/limits.maxResultBytes/)
    expect(oversized).toEqual([expect.objectContaining({ id: 7, error: expect.objectContaining({ code: -32603 }) })])
  })

  it('leaves a stream that answers no request (a GET, a notification) to the SDK untouched', async () => {
    const sent = event(answer(7))
    const url = await serve((res) => res.end(sent))
    const notification = await post(url, { body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).response
    expect(notification.headers.get('content-type')).toBe('text/event-stream')
    expect(await notification.text()).toBe(sent)
    const get = await fetchWithLimits(globalThis.fetch, { maxBytes: LIMIT, maxErrorChars: 2000, redact: redactSecrets })(url)
    expect(get.headers.get('content-type')).toBe('text/event-stream')
    expect(await get.text()).toBe(sent)
  })
})
