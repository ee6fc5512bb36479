/**
 * One raw HTTP exchange with an MCP endpoint, bounded by a timeout that covers headers and body.
 * Used both by the HTTP wire and by the transport probes that must send what a well-behaved
 * client never would (foreign Origin, bogus session, batches).
 */
import { cut } from '../quote.ts'
import { MAX_SSE_LINE_CHARS, SseParser } from './sse.ts'

export interface HttpResponseInfo {
  /** Undefined when no HTTP response arrived at all. */
  status?: number
  contentType: string | null
  sessionId: string | null
  /** JSON values from the body: the JSON document, or each SSE `data` payload. */
  messages: unknown[]
  /** The body when it was not JSON / SSE (truncated), for evidence. */
  text?: string
  timedOut?: boolean
  /** Network failure (connection refused, reset, DNS). */
  networkError?: string
  /** For an event stream: what resumption needs, and whether the server primed and ended it. */
  sse?: SseInfo
  /** The X-Accel-Buffering header of the answer (2026-07-28 asks for "no" on an event stream). */
  accelBuffering?: string | null
}

export interface SseInfo {
  /** The first event carried an id and empty data (the 2025-11-25 priming event). */
  primed: boolean
  /** The id of the last event received, for Last-Event-ID. */
  lastEventId?: string
  retryMs?: number
  /** The server closed the connection (rather than the kit stopping to read). */
  closedByServer: boolean
  /** The distinct event ids the stream carried, in order (the first MAX_EVENT_IDS). */
  eventIds: string[]
  /**
   * With `watchEndMs`: settles once the stream the `until` message came on ends (true) or is
   * still open `watchEndMs` after it (false). Not evidence: read it, then drop it.
   */
  endAfterUntil?: Promise<boolean>
}

export interface ExchangeOptions {
  method?: 'POST' | 'DELETE' | 'GET'
  headers: Record<string, string>
  body?: string
  timeoutMs: number
  /** Stop reading an SSE body once this returns true for a received message. */
  until?: (message: unknown) => boolean
  /** Called for every message as it arrives (server requests need an answer mid-stream). */
  onMessage?: (message: unknown) => void
  /** Called with the HTTP status (and any session id) once the response headers arrived, before any message. */
  onStatus?: (status: number, sessionId: string | null) => void
  /** Stop once the headers of an event stream arrived (a GET stream may stay open and silent). */
  streamHeadersOnly?: boolean
  /** After `until` matched, keep reading the stream in the background this long to see whether the server ends it. */
  watchEndMs?: number
  /** Stops watching at once (the connection is closing); the stream then counts as not ended. */
  watchSignal?: AbortSignal
  /** Ends the exchange early, as the timeout does, but not marked timed out (a listener the kit is done with). */
  signal?: AbortSignal
}

const MAX_TEXT = 64 * 1024
const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5
/** Notifications one exchange keeps for its evidence; the ledger counts and judges every one. */
const MAX_NOTIFICATIONS_KEPT = 50
/** Event ids one stream keeps for the uniqueness check; a stream is a handful of events in practice. */
const MAX_EVENT_IDS = 1_000

const isNotification = (m: unknown) => typeof m === 'object' && m !== null && typeof (m as { method?: unknown }).method === 'string' && !('id' in m)

export async function exchange(url: string, options: ExchangeOptions): Promise<HttpResponseInfo> {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const info: HttpResponseInfo = { contentType: null, sessionId: null, messages: [] }
  const stop = () => controller.abort()
  options.signal?.addEventListener('abort', stop, { once: true })
  try {
    let response = await fetch(url, { method: options.method ?? 'POST', headers: options.headers, body: options.body, signal: controller.signal, redirect: 'manual' })
    // A redirect to the same origin is followed (as the SDK's client, through fetch, does), with
    // the method and body kept for 307/308; one to another origin is not: it would send the
    // request, and its headers, somewhere the user did not name.
    let target = new URL(url)
    for (let hops = 0; REDIRECTS.has(response.status); hops++) {
      const location = response.headers.get('location')
      if (location === null) break
      const next = new URL(location, target)
      await response.body?.cancel().catch(() => {})
      if (next.origin !== target.origin) {
        info.networkError = `HTTP ${response.status} redirect to another origin (${next.origin}), which the kit does not follow`
        return info
      }
      if (hops >= MAX_REDIRECTS) {
        info.networkError = `more than ${MAX_REDIRECTS} redirects; the kit stopped following them`
        return info
      }
      const keep = response.status === 307 || response.status === 308
      target = next
      response = await fetch(next, { method: keep ? (options.method ?? 'POST') : 'GET', headers: options.headers, ...(keep ? { body: options.body } : {}), signal: controller.signal, redirect: 'manual' })
    }
    info.status = response.status
    info.contentType = response.headers.get('content-type')
    info.sessionId = response.headers.get('mcp-session-id')
    info.accelBuffering = response.headers.get('x-accel-buffering')
    options.onStatus?.(response.status, info.sessionId)
    const type = (info.contentType ?? '').toLowerCase()
    if (type.startsWith('text/event-stream') && options.streamHeadersOnly) await response.body?.cancel().catch(() => {})
    else if (type.startsWith('text/event-stream') && response.body) await readSse(response.body, info, options)
    else await readDocument(response, info, options)
  } catch (error) {
    if (timedOut) info.timedOut = true
    else if (info.status === undefined) info.networkError = describeNetworkError(error)
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', stop)
  }
  return info
}

/** A server's answer is read no further than this (the plugin's default limits.maxResultBytes plus 1 MiB). */
const MAX_BODY_BYTES = 17 * 1024 * 1024

async function readDocument(response: Response, info: HttpResponseInfo, options: ExchangeOptions): Promise<void> {
  const { text, cut } = await readBounded(response.body)
  if (cut) {
    info.text = `${text.slice(0, MAX_TEXT)}… [the body was longer than ${MAX_BODY_BYTES} bytes and was not read further]`
    return
  }
  if (text.trim() === '') return
  try {
    const value: unknown = JSON.parse(text)
    info.messages.push(value)
    options.onMessage?.(value)
  } catch {
    info.text = text.slice(0, MAX_TEXT)
  }
}

/** The body as text, read as a stream and abandoned past MAX_BODY_BYTES (a huge answer must not exhaust the kit). */
async function readBounded(body: ReadableStream<Uint8Array> | null): Promise<{ text: string; cut: boolean }> {
  if (!body) return { text: '', cut: false }
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { text: text + decoder.decode(), cut: false }
      bytes += value.byteLength
      if (bytes > MAX_BODY_BYTES) return { text, cut: true }
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    reader.cancel().catch(() => {})
  }
}

async function readSse(body: ReadableStream<Uint8Array>, info: HttpResponseInfo, options: ExchangeOptions): Promise<void> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const parser = new SseParser()
  const sse: SseInfo = { primed: false, closedByServer: false, eventIds: [] }
  info.sse = sse
  let first = true
  let bytes = 0
  let kept = 0
  let handedOff = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (parser.retryMs !== undefined) sse.retryMs = parser.retryMs
      if (parser.lastEventId !== undefined) sse.lastEventId = parser.lastEventId
      if (done) {
        sse.closedByServer = true
        return
      }
      const overlong = parser.overlongLines
      bytes += value.byteLength
      if (bytes > MAX_BODY_BYTES) {
        info.text = `${info.text ?? ''}[the stream was longer than ${MAX_BODY_BYTES} bytes and was not read further]`
        return
      }
      for (const event of parser.push(decoder.decode(value, { stream: true }))) {
        if (first) sse.primed = event.id !== undefined && event.data === ''
        first = false
        // An event without an id field carries the last one on (the SSE standard): counted once.
        if (event.id !== undefined && sse.eventIds.at(-1) !== event.id && sse.eventIds.length < MAX_EVENT_IDS) sse.eventIds.push(cut(event.id, 200))
        if (parser.retryMs !== undefined) sse.retryMs = parser.retryMs
        if (parser.lastEventId !== undefined) sse.lastEventId = parser.lastEventId
        if (event.event !== 'message' || event.data.trim() === '') continue
        let message: unknown
        try {
          message = JSON.parse(event.data)
        } catch {
          info.text = `${info.text ?? ''}${event.data}\n`.slice(0, MAX_TEXT)
          continue
        }
        // Every message reaches the ledger (onMessage); the exchange keeps the ones that may answer a request, and the first notifications.
        if (!isNotification(message) || kept++ < MAX_NOTIFICATIONS_KEPT) info.messages.push(message)
        options.onMessage?.(message)
        if (options.until?.(message)) {
          if (options.watchEndMs !== undefined) {
            sse.endAfterUntil = watchEnd(reader, options.watchEndMs, options.watchSignal)
            handedOff = true
          }
          return
        }
      }
      if (parser.overlongLines > overlong) info.text = `${info.text ?? ''}[an event-stream line longer than ${MAX_SSE_LINE_CHARS} characters was discarded]\n`.slice(-MAX_TEXT)
    }
  } finally {
    // The stream may stay open for further server messages; the harness is done with it (or watches it end).
    if (!handedOff) reader.cancel().catch(() => {})
  }
}

/**
 * Whether the server ends the stream within `ms`: what it still sends is read and dropped (the
 * request is answered), and the stream is let go either way, so no connection outlives the bound.
 */
async function watchEnd(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number, signal?: AbortSignal): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stop = () => {}
  const open = new Promise<false>((resolve) => {
    stop = () => resolve(false)
    timer = setTimeout(stop, ms)
    signal?.addEventListener('abort', stop, { once: true })
  })
  const ended = (async () => {
    try {
      for (;;) if ((await reader.read()).done) return true
    } catch {
      // Reset rather than ended: not the clean end the sentence asks for.
      return false
    }
  })()
  try {
    return signal?.aborted ? false : await Promise.race([ended, open])
  } finally {
    clearTimeout(timer)
    // One listener per watched stream would pile up on the wire's one signal.
    signal?.removeEventListener('abort', stop)
    reader.cancel().catch(() => {})
  }
}

export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as Error & { cause?: unknown }).cause
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined
  const detail = cause instanceof Error ? cause.message : ''
  if (typeof code === 'string' && TLS_CODE.test(code)) return `${error.message}: ${TLS_FAILED} (${code}): ${tlsAdvice(code)}`
  return [error.message, typeof code === 'string' ? code : '', detail].filter(Boolean).join(': ')
}

/** Marks a network error that is the TLS handshake's: the URL's matter, as an unreachable host is. */
export const TLS_FAILED = 'the TLS handshake failed'

/** OpenSSL's and Node's codes for a handshake or a certificate that failed (their text is OpenSSL's own, not shown). */
const TLS_CODE = /^(?:ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|EPROTO$|HOSTNAME_MISMATCH$)/

function tlsAdvice(code: string): string {
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG') {
    return 'the server does not speak TLS on this port; if it serves plain HTTP, give the URL with http://'
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return "the certificate does not name this host; use the host name it was issued for"
  if (/EXPIRED|NOT_YET_VALID/.test(code)) return "the server's certificate is outside its validity period"
  return "the server's certificate is not trusted here; if it is self-signed or from a private CA, give Node that CA: NODE_EXTRA_CA_CERTS=ca.pem npx mcp-conformance …"
}

/** Lower-cases header names so user headers and protocol headers merge predictably. */
export function normaliseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) out[key.toLowerCase()] = value
  return out
}
