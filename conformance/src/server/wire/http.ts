/**
 * A raw Streamable HTTP connection: one POST per message, session and protocol-version headers
 * managed by hand so the HTTP checks can see (and vary) exactly what is sent.
 */
import { exchange, normaliseHeaders, TLS_FAILED, type HttpResponseInfo } from './http-post.ts'
import { answers, classify, responseOutcome } from './jsonrpc.ts'
import { Ledger } from './ledger.ts'
import { needsResume, resume, type Resumption } from './resume.ts'
import { StreamMessages } from './stream-messages.ts'
import type { HttpMeta, NotifyOutcome, RpcOutcome, Wire, WireEntry } from './types.ts'
import { cut } from '../quote.ts'

export interface HttpTarget {
  url: string
  headers: Record<string, string>
}

/** One SSE event id the server used on the streams of two different requests of the session. */
export interface EventIdReuse {
  id: string
  first: string
  second: string
}

/** Event ids remembered for the uniqueness check, and reuses kept as evidence (every reuse is counted). */
const MAX_EVENT_IDS = 10_000
const KEEP_REUSES = 10

/** The envelope of every POST the wire made, for checks about the transport as a whole. */
export interface PostRecord {
  kind: 'request' | 'notification' | 'response'
  method: string
  status?: number
  contentType: string | null
  /** Whether the HTTP answer carried a body (judged for notifications and the kit's responses). */
  body?: boolean
  /**
   * Requests answered with an event stream: whether it was primed, how it was resumed, and whether
   * it (resumed or not) carried the response; `timedOut` when the kit stopped waiting for it.
   */
  stream?: {
    primed: boolean
    answered: boolean
    timedOut?: boolean
    resumption?: Omit<Resumption, 'messages'>
    /** Whether the server ended the stream within the request timeout of the response on it (set once `streamsEnded` settled). */
    endedAfterResponse?: boolean
  }
  /** The X-Accel-Buffering header of the answer, when it set one. */
  accelBuffering?: string
}

export class HttpWire implements Wire {
  readonly transport = 'http' as const
  readonly strays: unknown[] = []
  readonly posts: PostRecord[] = []
  /** Every message both ways, judged by the JSON-RPC envelope rules; it also answers server requests. */
  readonly ledger = new Ledger()
  sessionId: string | null = null
  /** Sent as MCP-Protocol-Version once negotiated (set by the runner after initialize). */
  protocolVersion: string | null = null
  /** Sends each request's method as Mcp-Method, as 2026-07-28 requires of every request (set for a modern run). */
  methodHeader = false
  private nextId = 0
  private terminated = false
  /** The streams still being watched for their end after the response they carried. */
  private readonly watched: Promise<void>[] = []
  private readonly watching = new AbortController()
  /** Event id → the request whose stream carried it first, over the session's streams. */
  private readonly eventIdOwner = new Map<string, string>()
  readonly eventIdReuses: EventIdReuse[] = []
  eventIdReuseCount = 0
  /** Which request stream carried each server request, and what resumptions replayed (stream-messages.ts). */
  readonly streams = new StreamMessages()
  /** The kit's request id → its stream's name, so a response replayed elsewhere can be told whose it is. */
  private readonly streamOf = new Map<number, string>()

  constructor(
    readonly target: HttpTarget,
    private readonly defaultTimeoutMs = 10_000,
  ) {}

  headers(overrides: Record<string, string | null> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      ...normaliseHeaders(this.target.headers),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    }
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId
    if (this.protocolVersion) headers['mcp-protocol-version'] = this.protocolVersion
    for (const [key, value] of Object.entries(overrides)) {
      if (value === null) delete headers[key.toLowerCase()]
      else headers[key.toLowerCase()] = value
    }
    return headers
  }

  async request(method: string, params?: Record<string, unknown>, timeoutMs = this.defaultTimeoutMs): Promise<RpcOutcome> {
    const id = ++this.nextId
    const streamName = `${method} (request ${id})`
    this.streamOf.set(id, streamName)
    const message = { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }
    const wire: WireEntry[] = [{ dir: 'client→server', message, http: { method: 'POST' } }]
    const pendingAnswers: Promise<unknown>[] = []
    this.ledger.sent(message)
    const deadline = Date.now() + timeoutMs
    let status: number | undefined
    const onMessage = (value: unknown) => {
      const answer = this.ledger.received(value, { refusal: (status ?? 0) >= 400 })
      if (answer) pendingAnswers.push(this.answer(answer))
    }
    const isResponse = (value: unknown) => isResponseTo(value, id)
    const info = await exchange(this.target.url, {
      headers: this.headers(this.methodHeader ? { 'mcp-method': method } : {}),
      body: JSON.stringify(message),
      timeoutMs,
      until: isResponse,
      onStatus: (code, sessionId) => {
        status = code
        // The kit's answer to a request the server sends on the initialize stream itself belongs to the new session.
        if (method === 'initialize' && sessionId && code < 300) this.sessionId = sessionId
      },
      onMessage,
      watchEndMs: this.defaultTimeoutMs,
      watchSignal: this.watching.signal,
    })
    // Known from the headers already: a resumed initialize stream needs it.
    if (method === 'initialize' && info.sessionId && info.status !== undefined && info.status < 300) this.sessionId = info.sessionId
    this.streams.sent(streamName, info.messages)
    let resumption: Resumption | undefined
    let resumedEnd: Promise<boolean> | undefined
    if (needsResume(info, info.messages.some(isResponse))) {
      // The resumed stream that carries the response is the one the server should then end.
      const watchEnd = { ms: this.defaultTimeoutMs, signal: this.watching.signal, watching: (ended: Promise<boolean>) => void (resumedEnd = ended) }
      resumption = await resume(info, { url: this.target.url, headers: (o) => this.headers(o), deadline, isResponse, onMessage, watchEnd })
      this.streams.replayed(streamName, id, resumption.messages, (responseId) => this.streamOf.get(Number(responseId)))
      info.messages.push(...resumption.messages)
      if (!resumption.answered && Date.now() >= deadline) info.timedOut = true
    }
    await Promise.all(pendingAnswers)
    const { messages: _resumed, ...resumed } = resumption ?? { messages: [] }
    const stream = info.sse
      ? { primed: info.sse.primed, answered: info.messages.some(isResponse), ...(info.timedOut ? { timedOut: true } : {}), ...(resumption ? { resumption: resumed as Omit<Resumption, 'messages'> } : {}) }
      : undefined
    this.ownEventIds(streamName, info.sse?.eventIds ?? [])
    const record: PostRecord = { kind: 'request', method, status: info.status, contentType: info.contentType, ...(stream ? { stream } : {}), ...(info.accelBuffering != null ? { accelBuffering: cut(info.accelBuffering, 40) } : {}) }
    this.posts.push(record)
    const end = resumedEnd ?? info.sse?.endAfterUntil
    if (end && record.stream) {
      const stream = record.stream
      this.watched.push(end.then((ended) => void (stream.endedAfterResponse = ended)))
    }
    if (resumption) wire.push(...resumption.wire)
    return toOutcome(id, info, wire, timeoutMs, this.strays)
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<NotifyOutcome> {
    const message = { jsonrpc: '2.0', method, ...(params ? { params } : {}) }
    const wire: WireEntry[] = [{ dir: 'client→server', message, http: { method: 'POST' } }]
    this.ledger.sent(message)
    const info = await exchange(this.target.url, { headers: this.headers(), body: JSON.stringify(message), timeoutMs: this.defaultTimeoutMs })
    this.posts.push({ kind: 'notification', method, status: info.status, contentType: info.contentType })
    const http = meta('POST', info)
    const refusal = (info.status ?? 0) >= 400
    for (const value of info.messages) {
      // A body in the answer to a notification is a reply to it, unless the transport refused the POST.
      this.ledger.received(value, refusal ? { refusal } : { toNotification: message })
      wire.push({ dir: 'server→client', message: value, http })
      if (classify(value).kind === 'stray' || classify(value).kind === 'response') this.strays.push(value)
    }
    if (info.messages.length === 0) wire.push({ dir: 'server→client', message: info.text ?? null, http })
    const ok = info.status !== undefined && info.status >= 200 && info.status < 300
    return { ok, wire, http, ...(ok ? {} : { reason: failureText(info, this.defaultTimeoutMs) }) }
  }

  /** The event ids of one request's stream, against those of every other request of the session. */
  private ownEventIds(request: string, ids: readonly string[]): void {
    for (const eventId of new Set(ids)) {
      const owner = this.eventIdOwner.get(eventId)
      if (owner === undefined) {
        if (this.eventIdOwner.size < MAX_EVENT_IDS) this.eventIdOwner.set(eventId, request)
      } else if (owner !== request) {
        this.eventIdReuseCount++
        if (this.eventIdReuses.length < KEEP_REUSES) this.eventIdReuses.push({ id: eventId, first: owner, second: request })
      }
    }
  }

  /** How many distinct event ids the session's request streams carried (up to the remembered bound). */
  get eventIdsSeen(): number {
    return this.eventIdOwner.size
  }

  /** Settles once every stream a response came on has ended or outlived its bound (the run's request timeout). */
  async streamsEnded(): Promise<void> {
    await Promise.all(this.watched)
  }

  /** DELETE of the session (the explicit end of a session); undefined when there is none. */
  async terminate(): Promise<HttpResponseInfo | undefined> {
    if (!this.sessionId || this.terminated) return undefined
    this.terminated = true
    return exchange(this.target.url, { method: 'DELETE', headers: this.headers(), timeoutMs: this.defaultTimeoutMs })
  }

  async close(): Promise<void> {
    await this.terminate()
    // No stream is watched past the connection's end: the run is over.
    this.watching.abort()
  }

  /** ServerWire: an HTTP session has no process to judge, so ending it is closing it. */
  async end(): Promise<undefined> {
    await this.close()
    return undefined
  }

  /** ServerWire: this connection is an HTTP session. */
  get http(): HttpWire {
    return this
  }

  private async answer(message: Record<string, unknown>): Promise<void> {
    const info = await exchange(this.target.url, { headers: this.headers(), body: JSON.stringify(message), timeoutMs: this.defaultTimeoutMs })
    const body = info.messages.length > 0 || (info.text ?? '').trim().length > 0
    this.posts.push({ kind: 'response', method: '(answer to a server request)', status: info.status, contentType: info.contentType, body })
  }
}

function isResponseTo(value: unknown, id: number): boolean {
  const incoming = classify(value)
  return incoming.kind === 'response' && answers(incoming.id, id)
}

function meta(method: string, info: HttpResponseInfo): HttpMeta {
  return { method, status: info.status, contentType: info.contentType, sessionId: info.sessionId }
}

function failureText(info: HttpResponseInfo, timeoutMs: number): string {
  if (info.networkError) return `request failed: ${info.networkError}`
  if (info.timedOut) return `no HTTP response within ${timeoutMs} ms`
  return `HTTP ${String(info.status)}${info.text ? `: ${cut(info.text, 200)}` : ''}`
}

function toOutcome(id: number, info: HttpResponseInfo, wire: WireEntry[], timeoutMs: number, strays: unknown[]): RpcOutcome {
  const http = meta('POST', info)
  let response: Record<string, unknown> | undefined
  let loneError: Record<string, unknown> | undefined
  for (const value of info.messages) {
    wire.push({ dir: 'server→client', message: value, http })
    const incoming = classify(value)
    if (incoming.kind === 'response' && answers(incoming.id, id)) response = incoming.message
    else if (incoming.kind === 'stray') loneError = incoming.message
    else if (incoming.kind === 'response') strays.push(value)
  }
  if (info.networkError) {
    // A TLS handshake that failed (plain HTTP on the port, an untrusted certificate) is the URL's too.
    // "bad port": fetch itself refuses ports such as 9 or 6000 (the fetch standard's blocked list).
    // A redirect the kit does not follow (to another origin) is the URL's matter too: the caller can give the one it points to.
    const unreachable = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ECONNRESET|bad port|redirect to another origin|redirects; the kit stopped/.test(info.networkError) || info.networkError.includes(TLS_FAILED)
    return { kind: 'closed', reason: `request failed: ${info.networkError}`, unreachable, wire, http }
  }
  if (info.timedOut) return { kind: 'timeout', afterMs: timeoutMs, wire, http }
  // A JSON-RPC error without an id in an HTTP error body is the transport's refusal of this request.
  const answer = response ?? (info.status !== undefined && info.status >= 400 ? loneError : undefined)
  if (answer) {
    const outcome = responseOutcome(answer, wire, http)
    if (outcome.kind === 'result' && info.status !== undefined && info.status >= 400) return { kind: 'malformed', reason: `HTTP ${info.status} with a result body`, wire, http }
    return outcome
  }
  if (loneError) strays.push(loneError)
  if (info.text !== undefined) wire.push({ dir: 'server→client', message: info.text, http })
  return { kind: 'malformed', reason: `HTTP ${String(info.status)} without a JSON-RPC response to request ${id}`, wire, http }
}
