/**
 * The harness's view of one connection to the server under test. It is deliberately lower level
 * than the SDK Client: every message is recorded in wire order, nothing is validated or hidden,
 * and no method ever throws — a dead server, a hang or garbage is an outcome to judge.
 */

export type Direction = 'client→server' | 'server→client'

export interface HttpMeta {
  method: string
  status?: number
  contentType?: string | null
  sessionId?: string | null
}

/** One entry of a wire excerpt: a JSON-RPC message (or raw text) and, over HTTP, its envelope. */
export interface WireEntry {
  dir: Direction
  message: unknown
  http?: HttpMeta
}

export interface RpcError {
  code: unknown
  message: unknown
  data?: unknown
}

interface OutcomeBase {
  /** The request and everything the server sent while it was pending, in order. */
  wire: WireEntry[]
  http?: HttpMeta
}

export type RpcOutcome =
  | (OutcomeBase & { kind: 'result'; result: unknown })
  | (OutcomeBase & { kind: 'error'; error: RpcError })
  | (OutcomeBase & { kind: 'timeout'; afterMs: number })
  /** The peer went away or could not be reached (process exited, connection refused). */
  | (OutcomeBase & { kind: 'closed'; reason: string; unreachable?: boolean })
  /**
   * Something came back, but not a JSON-RPC response to this request. `envelope`: the id of the
   * jsonrpc/* check that reports what is wrong with it (a response with both a result and an error).
   */
  | (OutcomeBase & { kind: 'malformed'; reason: string; envelope?: string })

export interface NotifyOutcome {
  ok: boolean
  reason?: string
  wire: WireEntry[]
  http?: HttpMeta
}

export interface Wire {
  readonly transport: 'stdio' | 'http'
  request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<RpcOutcome>
  notify(method: string, params?: Record<string, unknown>): Promise<NotifyOutcome>
  /** Responses whose id matched no pending request (e.g. a reply to a notification). */
  readonly strays: unknown[]
  /** Releases the connection; transport-specific shutdown verdicts come from the concrete wire. */
  close(): Promise<void>
}

export function describeOutcome(outcome: RpcOutcome): string {
  switch (outcome.kind) {
    case 'result':
      return 'a result'
    case 'error':
      return `JSON-RPC error ${String(outcome.error.code)} (${truncate(String(outcome.error.message))})`
    case 'timeout':
      return `no response within ${outcome.afterMs} ms`
    case 'closed':
      return `no response: ${outcome.reason}`
    case 'malformed':
      return `an invalid response: ${outcome.reason}`
  }
}

function truncate(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`
}
