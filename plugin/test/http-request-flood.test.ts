import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { redactSecrets } from '@mcp-bridge/process'
import { UndeliveredMessageError } from '../src/request-failure.ts'
import { fetchWithLimits, MAX_QUEUED_REPLIES, MAX_REPLY_POSTS } from '../src/response-limits.ts'
import { startHost, stateOf } from './support/host.ts'
import { listenOnLoopback, readJson } from './support/http-server.ts'

/**
 * A server may send the client requests (pings, sampling, ...) on a call's stream. The SDK answers
 * each with a POST of its own, at once: 10,000 pings made 5,743 POSTs in flight (+443 MB RSS), and
 * one failed reply POST ("fetch failed") was taken for a lost server. Replies now take turns,
 * MAX_REPLY_POSTS at a time, at most MAX_QUEUED_REPLIES waiting; a failed one is logged and the
 * session kept.
 */

const reply = (id: number | string) => JSON.stringify({ jsonrpc: '2.0', id, result: {} })
const request = (id: number) => JSON.stringify({ method: 'tools/call', params: { name: 'x' }, jsonrpc: '2.0', id })
const post = (body: string) => ({ method: 'POST', body })

/** A base fetch whose answers the test gives, one by one, in the order they were asked for. */
function controlledFetch() {
  const asked: Array<{ body: string; answer: (response: Response) => void; fail: (error: unknown) => void }> = []
  const base = ((_input: unknown, init?: RequestInit) =>
    new Promise<Response>((answer, fail) => asked.push({ body: String(init?.body), answer, fail }))) as typeof fetch
  return { base, asked }
}

const limits = { maxBytes: 1 << 20, maxErrorChars: 1000, redact: redactSecrets }
const accepted = () => new Response(null, { status: 202 })
/** Lets every settled promise's callbacks run (the queue hands turns on in microtasks). */
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('replies to the server take turns (fetchWithLimits)', () => {
  it(`sends at most ${MAX_REPLY_POSTS} replies at once, the rest in order; a request of ours never waits`, async () => {
    const { base, asked } = controlledFetch()
    const send = fetchWithLimits(base, limits)
    const replies = Promise.allSettled(Array.from({ length: MAX_REPLY_POSTS + 3 }, (_, i) => send('http://x/mcp', post(reply(i)))))
    await settle()
    expect(asked.map((a) => JSON.parse(a.body).id)).toEqual([...Array(MAX_REPLY_POSTS).keys()])

    const call = send('http://x/mcp', post(request(99)))
    await settle()
    expect(asked.at(-1)!.body).toBe(request(99))
    asked.at(-1)!.answer(accepted())
    expect((await call).status).toBe(202)

    // Each reply that ends hands its turn to the next one waiting, first come first served.
    asked[0]!.answer(accepted())
    await settle()
    expect(JSON.parse(asked.at(-1)!.body).id).toBe(MAX_REPLY_POSTS)
    asked[1]!.answer(accepted())
    asked[2]!.fail(new TypeError('fetch failed'))
    await settle()
    expect(asked.slice(-2).map((a) => JSON.parse(a.body).id)).toEqual([MAX_REPLY_POSTS + 1, MAX_REPLY_POSTS + 2])
    for (const a of asked) a.answer(accepted())
    expect((await replies).filter((o) => o.status === 'rejected')).toHaveLength(1)
  })

  it(`drops a reply when ${MAX_QUEUED_REPLIES} are waiting already, without sending it`, async () => {
    const { base, asked } = controlledFetch()
    const send = fetchWithLimits(base, limits)
    const replies = Array.from({ length: MAX_REPLY_POSTS + MAX_QUEUED_REPLIES }, (_, i) => send('http://x/mcp', post(reply(i))))
    const refused = send('http://x/mcp', post(reply('one too many')))
    await expect(refused).rejects.toBeInstanceOf(UndeliveredMessageError)
    await expect(refused).rejects.toMatchObject({ dropped: true, message: expect.stringMatching(/dropped the reply to the server's request "one too many"/) })
    await settle()
    expect(asked).toHaveLength(MAX_REPLY_POSTS)
    // Requests of ours are never queued, so never dropped.
    void send('http://x/mcp', post(request(1)))
    await settle()
    expect(asked).toHaveLength(MAX_REPLY_POSTS + 1)
    // As turns come back the queue drains; every queued reply is sent.
    let answered = 0
    while (answered < asked.length) {
      asked[answered++]!.answer(accepted())
      await settle()
    }
    await Promise.all(replies)
    expect(asked).toHaveLength(MAX_REPLY_POSTS + MAX_QUEUED_REPLIES + 1)
  })

  it('a failed reply or notification POST is an UndeliveredMessageError; a failed request stays what fetch threw', async () => {
    const failing = (() => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }) }))) as typeof fetch
    const send = fetchWithLimits(failing, limits)
    await expect(send('http://x/mcp', post(reply(7)))).rejects.toMatchObject({
      name: 'UndeliveredMessageError',
      dropped: false,
      message: expect.stringMatching(/could not send the reply to the server's request 7 to the server: fetch failed: ECONNRESET: other side closed/),
    })
    await expect(send('http://x/mcp', post(JSON.stringify({ method: 'notifications/cancelled', params: { requestId: 3 }, jsonrpc: '2.0' })))).rejects.toMatchObject({
      name: 'UndeliveredMessageError',
      message: expect.stringMatching(/notification notifications\/cancelled/),
    })
    const failed = send('http://x/mcp', post(request(4)))
    await expect(failed).rejects.toBeInstanceOf(TypeError)
    await expect(failed).rejects.not.toBeInstanceOf(UndeliveredMessageError)
  })
})

/**
 * A raw Streamable HTTP server whose one tool, `flood`, sends `pings` ping requests on the call's
 * stream in one write, and answers the call once every ping's reply POST has come in (or failed:
 * the socket of the first one is destroyed, so that the client's fetch fails with ECONNRESET).
 */
async function floodServer(pings: number) {
  const counts = { initialize: 0, replies: 0, resetReplies: 0 }
  let allReplies!: () => void
  const repliesIn = new Promise<void>((resolve) => (allReplies = resolve))
  const replied = () => {
    if (counts.replies + counts.resetReplies === pings) allReplies()
  }
  const json = (res: ServerResponse, body: unknown) =>
    void res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'flood-1' }).end(JSON.stringify(body))
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') return void res.writeHead(405).end()
    if (req.method === 'DELETE') return void res.writeHead(200).end()
    const message = (await readJson(req)) as { id?: unknown; method?: string; params?: { protocolVersion?: string } }
    if (message.method === undefined) {
      // A reply of the client's. The first one's connection is cut before any answer.
      if (counts.resetReplies === 0) {
        counts.resetReplies += 1
        req.socket.destroy()
      } else {
        counts.replies += 1
        res.writeHead(202).end()
      }
      return replied()
    }
    if (message.id === undefined) return void res.writeHead(202).end()
    if (message.method === 'initialize') {
      counts.initialize += 1
      const result = { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'flood', version: '1' } }
      return json(res, { jsonrpc: '2.0', id: message.id, result })
    }
    if (message.method === 'tools/list') return json(res, { jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'flood', inputSchema: { type: 'object' } }] } })
    if (message.method === 'tools/call') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'flood-1' })
      const events = Array.from({ length: pings }, (_, i) => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: `ping-${i}`, method: 'ping' })}\n\n`)
      res.write(events.join(''))
      await repliesIn
      const result = { content: [{ type: 'text', text: `answered after ${counts.replies + counts.resetReplies} replies` }] }
      return void res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`)
    }
    json(res, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })
  }
  const { port, close } = await listenOnLoopback(handle, () => [])
  return { url: `http://127.0.0.1:${port}/mcp`, counts, close }
}

describe('a flood of server requests over Streamable HTTP', () => {
  afterEach(() => vi.unstubAllGlobals())

  it(`answers every ping, ${MAX_REPLY_POSTS} reply POSTs at a time, and a failed reply does not lose the session`, async () => {
    const pings = 5 * MAX_REPLY_POSTS
    const server = await floodServer(pings)
    // Counts the reply POSTs in flight as they leave the bridge: the SDK starts one per ping in
    // the microtasks after the stream's one chunk, so without a bound they are all in flight at once.
    const realFetch = globalThis.fetch
    const inFlight = { now: 0, max: 0 }
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const isReply = typeof init?.body === 'string' && !('method' in (JSON.parse(init.body) as object))
      if (!isReply) return realFetch(input, init)
      inFlight.max = Math.max(inFlight.max, ++inFlight.now)
      try {
        return await realFetch(input, init)
      } finally {
        inFlight.now -= 1
      }
    })
    const host = await startHost()
    const fiber = await host.load({ transport: 'streamable-http', serverName: 'flood', url: server.url, reconnect: { initialDelayMs: 10, maxDelayMs: 100, maxAttempts: 3 } })
    const result = await host.tools.execute('mcp__flood__flood', {})
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: `answered after ${pings} replies` }] })
    expect(server.counts).toEqual({ initialize: 1, replies: pings - 1, resetReplies: 1 })
    expect(inFlight.max).toBeLessThanOrEqual(MAX_REPLY_POSTS)

    // The reply whose POST failed is one line of the log, not a lost connection.
    const logs = host.logs.join('\n')
    expect(logs).toMatch(/could not send the reply to the server's request "ping-\d+" to the server: fetch failed.*; the session is kept/)
    expect(logs).not.toMatch(/connection lost/)
    expect(stateOf(fiber)).toMatchObject({ kind: 'connected' })
    expect(await host.tools.execute('mcp__flood__flood', {})).toMatchObject({ isError: false })
  })
})
