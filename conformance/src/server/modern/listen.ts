/**
 * subscriptions/listen over Streamable HTTP, read only up to its first message: the stream stays
 * open by design, so the kit stops reading once the acknowledgement (or an answer to the request)
 * arrived, or at the request timeout, and closing it ends the subscription (a disconnect is its
 * cancellation, 2026-07-28 basic/patterns/cancellation).
 */
import { exchange } from '../wire/http-post.ts'
import type { HttpWire } from '../wire/http.ts'
import type { ListenOutcome } from './verdicts.ts'

/** A string id no other request of the run uses, so the acknowledgement's subscription id is unambiguous. */
const LISTEN_ID = 'mcp-conformance-listen-1'
const FILTER = { toolsListChanged: true }

export async function listen(wire: HttpWire, meta: Record<string, unknown>, timeoutMs: number): Promise<ListenOutcome> {
  const message = { jsonrpc: '2.0', id: LISTEN_ID, method: 'subscriptions/listen', params: { _meta: meta, notifications: FILTER } }
  const info = await exchange(wire.target.url, {
    headers: wire.headers({ 'mcp-method': 'subscriptions/listen' }),
    body: JSON.stringify(message),
    timeoutMs,
    // The first message decides the verdict: nothing after it is read.
    until: () => true,
  })
  const status = info.status
  const first = info.messages[0]
  if (first !== undefined) return { kind: 'message', first, id: LISTEN_ID, asked: Object.keys(FILTER), ...(status !== undefined ? { status } : {}) }
  if (info.networkError) return { kind: 'none', reason: `request failed: ${info.networkError}` }
  if (info.timedOut) return { kind: 'none', reason: `no message on the stream within ${timeoutMs} ms`, ...(status !== undefined ? { status } : {}) }
  return { kind: 'none', reason: `HTTP ${String(status)} without a message`, ...(status !== undefined ? { status } : {}) }
}
