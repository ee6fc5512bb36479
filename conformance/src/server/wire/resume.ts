/**
 * The client half of Streamable HTTP polling (2025-11-25): a server may close the connection of a
 * request's event stream before the response, after an event with an id; the client waits the
 * `retry` the server sent and resumes with GET and Last-Event-ID, as often as it takes.
 */
import { exchange, type HttpResponseInfo } from './http-post.ts'
import type { WireEntry } from './types.ts'

/** How long to wait before reconnecting when the server sent no `retry` (the SSE default is the client's choice). */
const DEFAULT_RETRY_MS = 1_000
/** Reconnections per request; a server that keeps closing without ever answering is given up on. */
const MAX_ATTEMPTS = 20

export interface Resumption {
  /** The server closed the connection before the response, after an event id. */
  closedEarly: boolean
  retryMs?: number
  attempts: number
  answered: boolean
  /** What the reconnections brought, in order. */
  messages: unknown[]
  wire: WireEntry[]
}

export interface ResumeOptions {
  url: string
  headers: (overrides: Record<string, string | null>) => Record<string, string>
  deadline: number
  /** Pure: whether a message is the response the request waits for (it is asked more than once per message). */
  isResponse: (message: unknown) => boolean
  onMessage: (message: unknown) => void
  /** Watch the stream that carried the response for its end this long, and hand over the watch (http-post.ts `watchEndMs`). */
  watchEnd?: { ms: number; signal?: AbortSignal; watching: (ended: Promise<boolean>) => void }
}

/** Whether `first` (a POST's answer) needs resuming: an event stream the server ended before the response. */
export function needsResume(first: HttpResponseInfo, answered: boolean): boolean {
  return !answered && !first.timedOut && first.sse?.closedByServer === true && first.sse.lastEventId !== undefined
}

export async function resume(first: HttpResponseInfo, options: ResumeOptions): Promise<Resumption> {
  const record: Resumption = { closedEarly: true, attempts: 0, answered: false, messages: [], wire: [], ...(first.sse?.retryMs !== undefined ? { retryMs: first.sse.retryMs } : {}) }
  let lastEventId = first.sse?.lastEventId
  let retryMs = first.sse?.retryMs
  while (lastEventId !== undefined && record.attempts < MAX_ATTEMPTS) {
    // The client MUST respect the retry field before reconnecting.
    const wait = Math.min(retryMs ?? DEFAULT_RETRY_MS, options.deadline - Date.now())
    if (wait < 0) break
    await new Promise((resolve) => setTimeout(resolve, wait))
    const remaining = options.deadline - Date.now()
    if (remaining <= 0) break
    record.attempts++
    const headers = options.headers({ accept: 'text/event-stream', 'content-type': null, 'last-event-id': lastEventId })
    record.wire.push({ dir: 'client→server', message: null, http: { method: 'GET', lastEventId } as { method: string } })
    const watch = options.watchEnd ? { watchEndMs: options.watchEnd.ms, ...(options.watchEnd.signal ? { watchSignal: options.watchEnd.signal } : {}) } : {}
    const info = await exchange(options.url, { method: 'GET', headers, timeoutMs: remaining, until: options.isResponse, onMessage: options.onMessage, ...watch })
    if (info.sse?.endAfterUntil) options.watchEnd?.watching(info.sse.endAfterUntil)
    record.wire.push({ dir: 'server→client', message: info.messages.length ? info.messages : (info.text ?? null), http: { method: 'GET', status: info.status, contentType: info.contentType } })
    record.messages.push(...info.messages)
    if (info.messages.some(options.isResponse)) {
      record.answered = true
      break
    }
    if (info.status === undefined || info.status >= 300 || !info.sse?.closedByServer) break
    lastEventId = info.sse.lastEventId ?? lastEventId
    retryMs = info.sse.retryMs ?? retryMs
  }
  return record
}
