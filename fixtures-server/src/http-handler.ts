import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { FixtureEngine } from './engine.ts'
import { admit, requestedVersion } from './era.ts'
import { failure, flood, jsonError, quoteHeaders } from './http-answers.ts'
import { LegacySseEdge } from './legacy-sse.ts'
import { OAuthServer } from './oauth-server.ts'
import { prng, randomHex } from './prng.ts'
import { rejectionReason } from './stdio-lines.ts'
import type { FaultSpec, HttpSpec } from './schema.ts'
import type { TapTransport } from './tap.ts'
import type { HttpEntry } from './wire.ts'

/** What the edge should do with a request: answer it (with what the wire log should add), or destroy the connection. */
export type HttpOutcome = { response: Response; log?: Pick<HttpEntry['http'], 'bearer' | 'token'> } | { drop: true }

interface HttpSession {
  transport: WebStandardStreamableHTTPServerTransport
  tap: TapTransport
  posts: number
}

/**
 * The fixture's Streamable HTTP endpoint as `Request -> outcome`, socket-free so it can also run
 * inside an msw handler. HTTP faults are decided here, before the SDK transport sees the request.
 */
export class FixtureHttpHandler {
  private readonly sessions = new Map<string, HttpSession>()
  private readonly faultHits = new Map<FaultSpec, number>()
  private readonly parked = new Set<() => void>()
  private posts = 0
  /** POSTs so far of each JSON-RPC method, for faults counted by method (`occurrence`). */
  private readonly methodPosts = new Map<string, number>()
  private sessionCount = 0
  private closed = false
  /** `http.oauth`: the authorization server and the bearer check of the endpoint. */
  private readonly oauth?: OAuthServer
  /** `http.legacySse`: the 2024-11-05 transport instead of Streamable HTTP. */
  private readonly legacy?: LegacySseEdge

  constructor(
    private readonly engine: FixtureEngine,
    private readonly spec: HttpSpec | undefined = engine.behaviour.http,
    /** Mixed into session ids so a restarted fixture does not reuse its predecessor's. */
    private readonly start = 1,
  ) {
    if (spec?.oauth) this.oauth = new OAuthServer(spec.oauth, engine.behaviour.seed, start)
    if (spec?.legacySse) this.legacy = new LegacySseEdge(engine, () => this.nextSessionId())
  }

  /** Whether a path is the fixture's: the MCP endpoint, and what OAuth and legacy SSE add beside it. */
  serves(path: string): boolean {
    return path === '/mcp' || (this.oauth?.serves(path) ?? false) || (this.legacy?.serves(path) ?? false)
  }

  /** For fetch-level hosts (msw): a dropped connection becomes a network error. */
  async fetch(request: Request): Promise<Response> {
    const outcome = await this.handle(request)
    return 'drop' in outcome ? Response.error() : outcome.response
  }

  async handle(request: Request): Promise<HttpOutcome> {
    if (this.closed) return { drop: true }
    const auth = this.spec?.auth
    if (auth && request.headers.get(auth.header) !== auth.value) {
      const message = auth.echo ? `Unauthorized: expected ${auth.header}, received ${quoteHeaders(request)}` : 'Unauthorized'
      return { response: jsonError(401, -32001, message, { 'www-authenticate': 'Bearer realm="mcp-fixture"' }) }
    }
    if (this.oauth?.serves(new URL(request.url).pathname)) {
      const { response, token } = await this.oauth.handle(request)
      return { response, log: token ? { token } : undefined }
    }
    const guard = this.oauth?.check(request)
    if (guard?.refusal) return { response: guard.refusal, log: { bearer: guard.bearer } }
    const log = guard ? { bearer: guard.bearer } : undefined
    const text = request.method === 'POST' ? await request.text() : undefined
    const body = text === undefined ? undefined : parseJson(text)
    if (this.legacy) return { response: await this.legacy.handle(request, body), log }
    if (text !== undefined) this.logRejected(text, body)
    const { method, tool } = firstCall(body)
    const scopeRefusal = this.oauth?.scopeRefusal(request, method)
    if (scopeRefusal) return { response: scopeRefusal, log }
    if (this.speaksModern(body)) {
      const outcome = await this.serveModern(request, text, body, method, tool)
      return 'drop' in outcome ? outcome : { ...outcome, log }
    }
    const sessionId = request.headers.get('mcp-session-id')
    let session = sessionId ? this.sessions.get(sessionId) : undefined
    if (sessionId && !session) return { response: jsonError(404, -32001, 'Session not found') }
    // Every POST of a session counts towards its expiry, faulted ones too.
    if (session && request.method === 'POST' && ++session.posts > (this.spec?.sessionRequests ?? Infinity)) {
      await this.expire(session)
      return { response: jsonError(404, -32001, 'Session not found') }
    }
    if (request.method === 'POST') {
      const faulted = this.fault(request, body, method, tool)
      if (faulted) return faulted
    }
    if (!session) {
      if (method !== 'initialize') return { response: jsonError(400, -32000, 'Bad Request: No valid session ID provided') }
      session = await this.openSession()
      session.posts = 1
    }
    const forwarded = new Request(request.url, { method: request.method, headers: request.headers, body: text })
    const response = await session.transport.handleRequest(forwarded, body === undefined ? undefined : { parsedBody: body })
    // A refused initialize (bad headers) leaves a session nobody can reach.
    if (session.transport.sessionId === undefined) await session.transport.close().catch(() => {})
    if (request.method === 'GET' && response.ok && response.body) return { response: this.watchStream(session, response), log }
    if (request.method === 'POST' && method !== undefined && this.spec?.jsonAnswers.includes(method)) return { response: await asJson(response), log }
    return { response, log }
  }

  /** A POST's scripted HTTP fault, when one matches: the outcome that replaces serving it. */
  private fault(request: Request, body: unknown, method: string | undefined, tool: string | undefined): HttpOutcome | Promise<HttpOutcome> | undefined {
    const fault = this.matchFault(++this.posts, method, tool)
    if (fault?.action === 'fail') return { response: failure(fault, request) }
    if (fault?.action === 'flood') return { response: flood(fault, requestId(body)) }
    if (fault?.action === 'drop') return { drop: true }
    if (fault?.action === 'never') return new Promise((resolve) => this.parked.add(() => resolve({ drop: true })))
    return undefined
  }

  /**
   * Whether a request is the modern era's (era.ts): everything that reaches a modern-only fixture,
   * and at a dual-era one every request whose `_meta` names a protocol version. The rest (initialize,
   * a session's requests, its GET stream and DELETE) takes the legacy path.
   */
  private speaksModern(body: unknown): boolean {
    const era = this.engine.behaviour.era
    return era === 'modern' || (era === 'dual' && !Array.isArray(body) && requestedVersion(body) !== undefined)
  }

  /**
   * 2026-07-28 Streamable HTTP: every POST stands alone (no session, no `Mcp-Session-Id`, which is
   * ignored), served by a fresh stateless SDK transport; refusals carry the status the binding gives them.
   */
  private async serveModern(request: Request, text: string | undefined, body: unknown, method: string | undefined, tool: string | undefined): Promise<HttpOutcome> {
    // streamable-http "Earlier Streamable HTTP Revisions": GET or DELETE to a modern-only endpoint SHOULD answer 405.
    if (request.method !== 'POST') return { response: jsonError(405, -32000, `Method Not Allowed: ${request.method} has no meaning in 2026-07-28`, { allow: 'POST' }) }
    const faulted = this.fault(request, body, method, tool)
    if (faulted) return faulted
    if (body === undefined) return { response: jsonError(400, -32700, 'Parse error: the body is not JSON') }
    if (Array.isArray(body) || typeof body !== 'object' || body === null) return { response: jsonError(400, -32600, 'Invalid Request: the body must be a single JSON-RPC message') }
    const message = body as { id?: string | number; method?: unknown }
    if (typeof message.method !== 'string' || message.id === undefined) {
      // A notification (or a stray response): nothing to answer, nothing to serve statelessly.
      this.engine.heard(body as JSONRPCMessage)
      return { response: new Response(null, { status: 202 }) }
    }
    const verdict = admit(this.engine.behaviour.era, message as { method: string }, (name) => request.headers.get(name))
    if ('refuse' in verdict) {
      this.engine.refused(body as JSONRPCMessage, verdict.refuse)
      const { status, code, message: text, data } = verdict.refuse
      const answer = { jsonrpc: '2.0', id: message.id, error: { code, message: text, ...(data !== undefined && { data }) } }
      return { response: new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } }) }
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    await this.engine.connect(transport)
    // The SDK v1 transport knows no modern version header; era.ts has checked it already.
    const headers = new Headers(request.headers)
    headers.delete('mcp-protocol-version')
    headers.delete('mcp-session-id')
    const response = await transport.handleRequest(new Request(request.url, { method: 'POST', headers, body: text }), { parsedBody: body })
    const id = message.id
    return {
      response: closeWhenDone(response, (early) => {
        if (early) this.engine.cancelled(id, 'response stream closed', 'unanswered')
        void transport.close().catch(() => {})
      }),
    }
  }

  /** Ends every session and releases requests parked by `never` faults (their sockets are dropped). */
  async close(): Promise<void> {
    this.closed = true
    for (const release of this.parked) release()
    this.parked.clear()
    await this.legacy?.close()
    await Promise.all([...this.sessions.values()].map((session) => session.transport.close().catch(() => {})))
    this.sessions.clear()
  }

  /**
   * A POST body, or a message of a batch, that the SDK's schema refuses: the SDK answers 400 and
   * never hands it to the server, so it is logged here, as sent.
   */
  private logRejected(text: string, body: unknown): void {
    if (body === undefined) {
      if (text.trim() !== '') this.engine.rejected(undefined, 'not JSON', text)
      return
    }
    for (const message of Array.isArray(body) ? body : [body]) {
      if (!JSONRPCMessageSchema.safeParse(message).success) this.engine.rejected(message, rejectionReason(message))
    }
  }

  private matchFault(post: number, method: string | undefined, tool: string | undefined): FaultSpec | undefined {
    const ofMethod = method === undefined ? 0 : (this.methodPosts.get(method) ?? 0) + 1
    if (method !== undefined) this.methodPosts.set(method, ofMethod)
    for (const fault of this.spec?.faults ?? []) {
      if (fault.request !== undefined && fault.request !== post) continue
      if (fault.method !== undefined && fault.method !== method) continue
      if (fault.occurrence !== undefined && fault.occurrence !== ofMethod) continue
      if (fault.tool !== undefined && (method !== 'tools/call' || fault.tool !== tool)) continue
      const hits = this.faultHits.get(fault) ?? 0
      if (fault.times !== undefined && hits >= fault.times) continue
      this.faultHits.set(fault, hits + 1)
      return fault
    }
    return undefined
  }

  /** Seeded, so a run's session ids repeat; the start number keeps a restarted fixture's new. */
  private nextSessionId(): string {
    return uuidFrom(randomHex(prng(this.engine.behaviour.seed, this.start * 1000 + ++this.sessionCount), 32))
  }

  private async openSession(): Promise<HttpSession> {
    const session = {} as HttpSession
    session.posts = 0
    const id = this.nextSessionId()
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      onsessionclosed: (id) => void this.sessions.delete(id),
    })
    session.tap = await this.engine.connect(session.transport, true)
    return session
  }

  private async expire(session: HttpSession): Promise<void> {
    if (session.transport.sessionId) this.sessions.delete(session.transport.sessionId)
    await session.transport.close().catch(() => {})
  }

  /** Tells the tap when the client's standalone stream opens and ends. */
  private watchStream(session: HttpSession, response: Response): Response {
    const reader = response.body!.getReader()
    const ended = () => session.tap.streamClosed()
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read()
        if (!done) return controller.enqueue(value)
        ended()
        controller.close()
      },
      cancel(reason) {
        ended()
        return reader.cancel(reason)
      },
    })
    void session.tap.streamOpened()
    return new Response(body, { status: response.status, headers: response.headers })
  }
}

/**
 * `http.jsonAnswers`: an event stream that carried only the response, read to its end (the SDK
 * ends a request's stream once it is answered) and sent as one JSON body. Anything else is left
 * as it came.
 */
async function asJson(response: Response): Promise<Response> {
  if (!/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) return response
  const text = await response.text()
  const data = text.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).filter((line) => line !== '')
  const headers = new Headers(response.headers)
  if (data.length !== 1) return new Response(text, { status: response.status, headers })
  headers.set('content-type', 'application/json')
  return new Response(data[0], { status: response.status, headers })
}

/** The response as is, with `done` called once its body has been read to the end, or (`early`) dropped before. */
function closeWhenDone(response: Response, done: (early: boolean) => void): Response {
  if (!response.body) {
    done(false)
    return response
  }
  const reader = response.body.getReader()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done: ended, value } = await reader.read()
      if (!ended) return controller.enqueue(value)
      controller.close()
      done(false)
    },
    cancel(reason) {
      done(true)
      return reader.cancel(reason)
    },
  })
  return new Response(body, { status: response.status, headers: response.headers })
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The id of a POST's JSON-RPC request, which a scripted answer must carry. */
function requestId(body: unknown): unknown {
  const first = (Array.isArray(body) ? body[0] : body) as { id?: unknown } | undefined
  return typeof first === 'object' && first !== null ? first.id : undefined
}

/** The method (and tool, for tools/call) of a POST's first JSON-RPC message. */
export function firstCall(body: unknown): { method?: string; tool?: string } {
  const first = (Array.isArray(body) ? body[0] : body) as { method?: unknown; params?: { name?: unknown } } | undefined
  if (!first || typeof first !== 'object' || typeof first.method !== 'string') return {}
  const name = first.params?.name
  return { method: first.method, tool: typeof name === 'string' ? name : undefined }
}

const uuidFrom = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
