import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { FixtureEngine } from './engine.ts'
import { jsonError } from './http-answers.ts'

/**
 * The server side of the deprecated HTTP+SSE transport (MCP 2024-11-05 §basic/transports), in
 * web-standard Request/Response form so the fixture's edge stays socket-free: a GET opens the
 * event stream, whose first event (`endpoint`) names the URL the client POSTs its messages to;
 * every answer and server message travels on the stream. (The SDK's SSEServerTransport does the
 * same over node's ServerResponse only.)
 */
export class LegacySseServerTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: Transport['onmessage']
  private controller?: ReadableStreamDefaultController<Uint8Array>
  private closed = false
  private readonly encoder = new TextEncoder()
  /** The event stream, answered to the GET that opened the session. */
  readonly stream: ReadableStream<Uint8Array>

  constructor(
    readonly sessionId: string,
    postUrl: string,
  ) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller
        controller.enqueue(this.encoder.encode(`event: endpoint\ndata: ${postUrl}\n\n`))
      },
      // The client went away: the session is over, as for a legacy server that saw the socket close.
      cancel: () => void this.close(),
    })
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || !this.controller) throw new Error('the SSE stream is closed')
    this.controller.enqueue(this.encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`))
  }

  /** A POST to the session's message URL: accepted at once, answered on the stream. */
  receive(body: unknown): Response {
    const messages = Array.isArray(body) ? body : [body]
    const parsed = messages.map((message) => JSONRPCMessageSchema.safeParse(message))
    if (parsed.some((result) => !result.success)) return jsonError(400, -32700, 'Parse error: not a JSON-RPC message')
    for (const result of parsed) this.onmessage?.(result.data!)
    return new Response('Accepted', { status: 202, headers: { 'content-type': 'text/plain' } })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    try {
      this.controller?.close()
    } catch {
      // Already cancelled by the client.
    }
    this.onclose?.()
  }
}

/**
 * The legacy-only edge (`http.legacySse`): the endpoint URL is the SSE URL, its message URL is
 * `<endpoint>/messages?sessionId=…`. A POST to the endpoint itself is refused with 405, which is
 * how MCP 2025-11-25 §basic/transports "Backwards Compatibility" has a client tell an old server.
 */
export class LegacySseEdge {
  private readonly sessions = new Map<string, LegacySseServerTransport>()

  constructor(
    private readonly engine: FixtureEngine,
    private readonly nextSessionId: () => string,
    private readonly endpoint = '/mcp',
  ) {}

  /** The message path (the endpoint itself is always the edge's). */
  serves(path: string): boolean {
    return path === `${this.endpoint}/messages`
  }

  async handle(request: Request, body: unknown): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === this.endpoint) {
      if (request.method === 'GET') return this.open()
      return jsonError(405, -32000, 'Method Not Allowed: this server speaks the HTTP+SSE transport of 2024-11-05 (GET this URL for the event stream)', { allow: 'GET' })
    }
    if (request.method !== 'POST') return jsonError(405, -32000, 'Method Not Allowed', { allow: 'POST' })
    const session = this.sessions.get(url.searchParams.get('sessionId') ?? '')
    if (!session) return jsonError(404, -32001, 'Session not found')
    return session.receive(body)
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.close()))
    this.sessions.clear()
  }

  private async open(): Promise<Response> {
    const id = this.nextSessionId()
    const transport = new LegacySseServerTransport(id, `${this.endpoint}/messages?sessionId=${id}`)
    this.sessions.set(id, transport)
    await this.engine.connect(transport)
    const forget = transport.onclose
    transport.onclose = () => {
      this.sessions.delete(id)
      forget?.()
    }
    return new Response(transport.stream, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } })
  }
}
