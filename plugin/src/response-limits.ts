import { BoundedQueue, concatBytes, errorMessageWithCause, EventSizeScanner, isRecord, limitStream, NOTHING_TO_RELEASE, onAbort, parseJson, quoteUntrusted, readBoundedText, type Redact, refusedAnswer, sseField } from '@mcp-bridge/process'
import { BridgeError } from './errors.ts'
import { ENVELOPE_BYTES, isMessage, malformedAnswer } from './json-rpc-message.ts'
import { OVERSIZED_MARK, UndeliveredMessageError } from './request-failure.ts'

/**
 * A fetch for the SDK's HTTP transports that bounds what a server can make the host hold, at the
 * source: the SDK would otherwise buffer a whole answer (`response.json()`, `response.text()`)
 * before anything could check its size.
 *
 * - An error response's body is read up to what can be quoted, then abandoned; what is kept is
 *   redacted and cut to `maxErrorChars` with a notice, so the SDK's error text (which embeds the
 *   body) is safe to show.
 * - A JSON answer larger than `maxBytes` (plus room for the JSON-RPC envelope) is abandoned: the
 *   body errors with INVALID_RESULT, which fails the request.
 * - An SSE event larger than that is abandoned too: the stream errors, and `onOversized` answers
 *   the request with a JSON-RPC error, so the call fails at once instead of waiting for its timeout.
 *
 * It also gives every request a signal of its own. The SDK passes one session-wide AbortSignal to
 * every fetch; undici hangs a listener on it per request and drops it only when the request is
 * garbage-collected, so a busy session trips Node's MaxListenersExceededWarning after about 1,500
 * calls. Each request here follows the session signal only until its body has been read,
 * cancelled or abandoned, through one shared listener (abort-listeners.ts): a listener per request
 * trips the same warning with more than 10 requests in flight.
 *
 * Both jobs share one stream over the body: a JavaScript ReadableStream and a Response cost about
 * 12 and 5 µs each to build on Node 20, on every call (bench/README.md, issue 20).
 */
export interface ResponseLimits {
  maxBytes: number
  maxErrorChars: number
  redact: Redact
  /** Delivers the answer to a request whose SSE response was abandoned (the transport's onmessage). */
  onOversized?: (answer: { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string; data: Record<string, boolean> } }) => void
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])

/**
 * Answers up to this size may reach the SDK as JSON (EventReader.plainAnswer). Reading one costs a
 * JSON.parse more (about 5 µs per KB here) against the SDK's event pipeline (about 150 µs per
 * answer): past about 28 KB the shortcut loses, and a 10,000-tool listing in 500-tool pages
 * (110 KB each) measured 1.38-1.74x of the raw SDK with it and 1.12-1.21x without.
 */
const PLAIN_ANSWER_MAX_BYTES = 16 * 1024

/**
 * Replies to the server's requests (and anything else that is not a message of ours) POSTed at
 * once, per connection; the rest wait their turn, in order. The SDK POSTs each reply as soon as
 * its handler returns: a server that sends 10,000 pings on one stream had 5,743 POSTs in flight,
 * a socket each, and the host's RSS up by 443 MB.
 */
export const MAX_REPLY_POSTS = 8
/** Replies that may wait for a turn; one more is dropped (its request goes unanswered) and counted. */
export const MAX_QUEUED_REPLIES = 4096

export function fetchWithLimits(base: typeof fetch, limits: ResponseLimits): typeof fetch {
  const replies = new BoundedQueue(MAX_REPLY_POSTS, MAX_QUEUED_REPLIES)
  const limited = boundedFetch(base, limits)
  return (input, init) => {
    // The SDK writes its own requests and notifications method first (`{"method":…`); a reply
    // starts with "result", "jsonrpc" or "error". A request of ours never waits behind replies.
    const body = init?.body
    if (init?.method !== 'POST' || typeof body !== 'string' || body.startsWith('{"method":')) return undelivered(limited(input, init), body)
    return replies.run(() => undelivered(limited(input, init), body), () => dropped(body))
  }
}

/** A failed POST of a reply or a notification, as an UndeliveredMessageError; a request's failure as it is. */
async function undelivered(sent: Promise<Response>, body: unknown): Promise<Response> {
  try {
    return await sent
  } catch (error) {
    const what = outgoingKind(body)
    if (!what) throw error
    throw new UndeliveredMessageError(`could not send ${what} to the server: ${errorMessageWithCause(error)}`, false, { cause: error })
  }
}

function dropped(body: unknown): UndeliveredMessageError {
  return new UndeliveredMessageError(`dropped ${outgoingKind(body) ?? 'a message'}: ${MAX_QUEUED_REPLIES} replies were already waiting to be sent`, true)
}

/** "the reply to the server's request 7" or "notification notifications/cancelled"; undefined for a request of ours (or no message). */
function outgoingKind(body: unknown): string | undefined {
  const message = postedMessage(body)
  if (!message) return undefined
  const { method, id } = message
  if (typeof method === 'string') return id === undefined ? `notification ${method.slice(0, 100)}` : undefined
  return `the reply to the server's request ${typeof id === 'string' ? JSON.stringify(id.slice(0, 100)) : String(id)}`
}

function boundedFetch(base: typeof fetch, limits: ResponseLimits): typeof fetch {
  const maxBytes = limits.maxBytes + ENVELOPE_BYTES
  return async (input, init) => {
    const parent = init?.signal
    const own = parent ? new AbortController() : undefined
    // The session signal is shared by every request in flight: one listener fans out to them all.
    const release = parent && own ? onAbort(parent, () => own.abort(parent.reason)) : NOTHING_TO_RELEASE
    let response: Response
    try {
      response = await base(input, own ? { ...init, signal: own.signal } : init)
    } catch (error) {
      release()
      throw error
    }
    if (!response.body || NULL_BODY_STATUS.has(response.status)) {
      release()
      return response
    }
    if (!response.ok) return boundedError(response, limits).finally(release)
    const type = (response.headers.get('content-type') ?? '').toLowerCase()
    if (!type.startsWith('text/event-stream')) return withBody(response, limitStream(response.body, maxBytes, (read) => oversized(limits.maxBytes, read), release))
    const events = new EventReader(response.body, maxBytes, limits, requestIdOf(init?.body), release)
    return (await events.plainAnswer(response)) ?? withBody(response, events.stream())
  }
}

function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/** The error body, read no further than can be quoted, redacted and cut with a notice. */
async function boundedError(response: Response, limits: ResponseLimits): Promise<Response> {
  // A character takes at most 4 bytes; the margin lets the redactor see a secret cut by the limit.
  const readBytes = Math.min(limits.maxBytes, limits.maxErrorChars * 4 + 8192)
  const { text, abandoned } = await readBoundedText(response.body!, readBytes)
  const quoted = quoteUntrusted(text, limits.maxErrorChars, limits.redact, abandoned ? Infinity : text.length)
  const statusText = quoteUntrusted(response.statusText, 200, limits.redact)
  return new Response(quoted, { status: response.status, statusText, headers: response.headers })
}

/**
 * A JSON body is the answer itself; on an event stream the event over the limit may be anything
 * the server sends there (a request of its own, say), and the stream, the answer with it, goes.
 */
function oversized(maxResultBytes: number, read: number, stream = false): BridgeError {
  const message = stream
    ? `a message on the stream that carries the server's answer exceeded limits.maxResultBytes (${maxResultBytes} bytes); it was abandoned after ${read} bytes, with the rest of the stream`
    : `the server's answer exceeded limits.maxResultBytes (${maxResultBytes} bytes); it was abandoned after ${read} bytes`
  return new BridgeError(message, 'INVALID_RESULT')
}

/**
 * Reads an SSE stream, counting the bytes of the event in progress. An event over `maxBytes`
 * errors the stream, which drops what the SDK's parser holds of it (closing the event instead
 * would have the parser copy it once more), and its request gets a JSON-RPC error.
 *
 * The bytes of an unfinished event are held here, compactly, and handed on once it has ended:
 * the SDK's parser joins every chunk to the unfinished line and copies it whole each time, which
 * for a large event churns through many times its size (RSS up to 30 MiB over an 8 MiB limit,
 * varying with GC timing). Nothing waits that could be used earlier: an event is only dispatched
 * once it has ended, and an abandoned event never reaches the parser at all.
 */
class EventReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private readonly scanner = new EventSizeScanner()
  /** Read ahead by plainAnswer and not yet handed on, in order; then a read still in flight. */
  private readonly head: Uint8Array[] = []
  private pending?: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>
  /** The read-ahead stopped where an event ended, so it can be handed on at once. */
  private headEnded = false
  private read = 0

  constructor(
    source: ReadableStream<Uint8Array>,
    private readonly maxBytes: number,
    private readonly limits: ResponseLimits,
    private readonly requestId: unknown,
    private readonly release: () => void,
  ) {
    this.reader = source.getReader()
  }

  /**
   * Most answers to a POST are one event, the JSON-RPC response, and then the end of the stream.
   * The SDK would pass those bytes through two more web streams and an event parser, about 150 µs
   * per call on Node 20 (bench/README.md, issue 20), so such an answer is handed to it as the JSON
   * body it is equivalent to: the SDK delivers the same messages in the same order either way.
   * Anything else goes to the SDK as the stream it is, from its first byte (`undefined` here): an
   * event id or retry (resumption needs them), a message the SDK would refuse (but for an unusable
   * answer to this request, which becomes the error that fails it: parseMessage), no response to this
   * request, a stream that has not ended by the time its response has been read, or an answer
   * larger than PLAIN_ANSWER_MAX_BYTES.
   */
  async plainAnswer(response: Response): Promise<Response | undefined> {
    if (typeof this.requestId !== 'string' && typeof this.requestId !== 'number') return undefined
    let bytes = 0
    for (;;) {
      const next = this.reader.read()
      const result = await next.catch(() => undefined)
      // The end, or a failed read, is the stream's to report, as the SDK would have seen it.
      if (!result || result.done) return void (this.pending = next)
      const { largest, ended } = this.scanner.push(result.value)
      this.read += result.value.byteLength
      this.head.push(result.value)
      bytes += result.value.byteLength
      if (largest > this.maxBytes || bytes > PLAIN_ANSWER_MAX_BYTES) {
        // An event that ended in what was read goes on at once: the stream may stay open after it.
        this.headEnded = ended
        return undefined
      }
      if (ended) break
    }
    this.headEnded = true
    const messages = plainMessages(new TextDecoder().decode(concatBytes(this.head, bytes)), this.requestId)
    if (!messages) return undefined
    // The response is in; the stream should end now (the spec: the server SHOULD close it). An end
    // already buffered arrives within microtasks; anything later goes the SDK's way, unread here.
    const next = this.reader.read()
    const settled = await Promise.race([next.then((result) => result, () => undefined), new Promise<'open'>((resolve) => setImmediate(resolve, 'open'))])
    if (settled === 'open' || !settled?.done) {
      this.pending = next
      return undefined
    }
    this.release()
    this.head.length = 0
    const headers = new Headers(response.headers)
    headers.set('content-type', 'application/json')
    return new Response(`[${messages.join(',')}]`, { status: response.status, statusText: response.statusText, headers })
  }

  /** The stream, from what plainAnswer read ahead (if anything) to its end, within the size limit. */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: (controller) => this.pull(controller),
      cancel: (reason) => {
        this.release()
        return this.reader.cancel(reason)
      },
    })
  }

  private async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    // What plainAnswer read ahead goes first. Read up to the end of an event (the response among
    // them, maybe), it goes at once; over the limit, it is abandoned; cut short by the shortcut's
    // size bound, it waits in the batch for the rest of its event, like any other.
    const batch = this.head.splice(0)
    let batchBytes = batch.reduce((sum, chunk) => sum + chunk.byteLength, 0)
    if (batch.length && this.scanner.largestSeen > this.maxBytes) return this.abandon(controller)
    if (batch.length && this.headEnded) return controller.enqueue(concatBytes(batch, batchBytes))
    try {
      for (;;) {
        const next = this.pending ?? this.reader.read()
        this.pending = undefined
        const { done, value } = await next
        if (done) {
          this.release()
          if (batch.length) controller.enqueue(concatBytes(batch, batchBytes))
          return controller.close()
        }
        this.read += value.byteLength
        const { largest, ended } = this.scanner.push(value)
        if (largest > this.maxBytes) return this.abandon(controller)
        batch.push(value)
        batchBytes += value.byteLength
        if (ended) return controller.enqueue(concatBytes(batch, batchBytes))
      }
    } catch (error) {
      this.release()
      controller.error(error)
    }
  }

  private abandon(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.release()
    void this.reader.cancel().catch(() => {})
    const error = oversized(this.limits.maxBytes, this.read, true)
    const id = this.requestId
    if (typeof id === 'string' || typeof id === 'number') {
      this.limits.onOversized?.({ jsonrpc: '2.0', id, error: { code: -32603, message: error.message, data: { [OVERSIZED_MARK]: true } } })
    }
    controller.error(error)
  }
}

/**
 * The JSON texts of the messages in `text`, when it is whole events (an empty line after the last)
 * of plain JSON-RPC messages the SDK accepts, ending with the response to `requestId`, and nothing
 * else: no event id, no retry, no other event type or field. Otherwise `undefined`.
 */
function plainMessages(text: string, requestId: string | number): string[] | undefined {
  const lines = text.split(/\r\n|\r|\n/)
  // The text ends with an empty line: split leaves an empty last element after it.
  if (lines.length < 2 || lines.at(-1) !== '' || lines.at(-2) !== '') return undefined
  const messages: string[] = []
  let data: string[] = []
  let answered = false
  for (const line of lines.slice(0, -1)) {
    if (line === '') {
      if (data.length) {
        if (answered) return undefined
        const parsed = parseMessage(data.join('\n'), requestId)
        if (!parsed) return undefined
        const { message, json } = parsed
        answered = 'id' in message && message.id === requestId && ('result' in message || 'error' in message)
        messages.push(json)
      }
      data = []
      continue
    }
    const member = sseField(line)
    if (!member) continue
    if (member.field === 'data') data.push(member.value)
    else if (member.field !== 'event' || member.value !== 'message') return undefined
  }
  return answered ? messages : undefined
}

/**
 * A message the SDK accepts, as is; or, for an answer to this request that the SDK would drop (a
 * "result" that is an array, say), the error that fails the request at once in its place
 * (json-rpc-message.ts' refusedAnswer).
 */
function parseMessage(json: string, requestId: string | number): { message: Record<string, unknown>; json: string } | undefined {
  const value = parseJson(json)
  if (isMessage(value)) return { message: value as Record<string, unknown>, json }
  const refused = refusedAnswer(value)
  if (refused?.id !== requestId) return undefined
  const answer = malformedAnswer(refused)
  return { message: answer as Record<string, unknown>, json: JSON.stringify(answer) }
}

/** The id of the JSON-RPC request a POST carries (the SDK sends one message per POST). */
function requestIdOf(body: unknown): unknown {
  const message = postedMessage(body)
  return typeof message?.method === 'string' ? message.id : undefined
}

/** The message a POST's body holds, when it is a JSON object. */
function postedMessage(body: unknown): { method?: unknown; id?: unknown } | undefined {
  const message = parseJson(body)
  return isRecord(message) ? message : undefined
}
