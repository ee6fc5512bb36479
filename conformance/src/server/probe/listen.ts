/**
 * The session's own GET stream, held open while the kit makes its calls, so what the server sends
 * on it can be judged (and the GET probe's status read from it: one GET per session, as a server
 * may refuse a second with 409). Closed by the kit before the transport probes.
 */
import type { Probe } from '../evaluate/http.ts'
import { exchange } from '../wire/http-post.ts'
import type { HttpWire } from '../wire/http.ts'

/** The longest timer Node keeps; the listener is ended by `stop`, which the run always calls. */
const UNTIL_STOPPED_MS = 2_147_483_647

export interface Listener {
  /** Ends the stream; resolves to what was sent and what arrived on it. */
  stop(): Promise<Probe>
}

export function listen(wire: HttpWire): Listener {
  const headers = wire.headers({ accept: 'text/event-stream', 'content-type': null })
  const controller = new AbortController()
  const answer = exchange(wire.target.url, { method: 'GET', headers, timeoutMs: UNTIL_STOPPED_MS, signal: controller.signal })
  const visible = Object.fromEntries(Object.entries(headers).filter(([key]) => ['mcp-session-id', 'mcp-protocol-version', 'accept'].includes(key)))
  return {
    async stop() {
      controller.abort()
      return { request: { method: 'GET', headers: visible }, response: await answer }
    },
  }
}
