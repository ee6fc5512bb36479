import { parseJson } from '@mcp-bridge/process'
import { ProtocolError, SdkHttpError, type DiscoverResult } from '@modelcontextprotocol/client'

/**
 * Which era of MCP a server speaks, as a connection learned it: legacy (the `initialize`
 * handshake, MCP 2025-11-25 and before) or modern (2026-07-28: `server/discover`, per-request
 * `_meta`), with the DiscoverResult a reconnect adopts without asking again. "Clients SHOULD
 * cache the era determination per server" (2026-07-28 basic/lifecycle, Backward Compatibility):
 * a connection keeps it for its life, and forgets it when a connection made with it fails.
 */
export type Era = { kind: 'legacy' } | { kind: 'modern'; discover: DiscoverResult }

/** The revision the bridge speaks to modern servers. */
export const MODERN_REVISION = '2026-07-28'

/**
 * How long the server/discover probe waits over stdio before the server counts as a legacy one
 * that stays silent: legacy servers answer "unknown pre-initialize requests with
 * implementation-defined errors (commonly -32601 or -32602) or not at all" (2026-07-28
 * basic/transports/stdio, Backward Compatibility). The wait counts from the spawn, so it must
 * outlast a slow start on a busy machine: a modern server still booting when it ends would get
 * `initialize`, refuse it, and cost a second child. Only a server that never answers unknown
 * requests pays the wait, so it is generous (10 s), and capped at half of connectTimeoutMs so
 * that the legacy handshake after a silent probe keeps at least the other half. Over HTTP a
 * silent server is an outage, not a legacy one: the probe has the whole connect deadline
 * (undefined).
 */
export function probeWaitMs(config: { transport: string; connectTimeoutMs: number }): number | undefined {
  if (config.transport !== 'stdio') return undefined
  return Math.max(1, Math.min(SILENT_PROBE_WAIT_MS, Math.floor(config.connectTimeoutMs / 2)))
}

const SILENT_PROBE_WAIT_MS = 10_000

/** UnsupportedProtocolVersionError's code (2026-07-28 schema). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022

/**
 * Pure. A refused `initialize` that identifies a modern server: "a recognized modern JSON-RPC
 * error (such as UnsupportedProtocolVersionError) identifies a modern server" (2026-07-28
 * basic/versioning, Backward Compatibility), and its `data.supported` names the modern revision
 * the bridge speaks. Over stdio the client hands it over as a ProtocolError; over Streamable HTTP
 * it is the body of the POST's 400 answer, which the transport keeps in its error. Anything else
 * (another code, no list, only other revisions) is not a reason to change era: the refusal stays
 * the connection's error.
 */
export function isModernRefusal(error: unknown): boolean {
  if (error instanceof ProtocolError) return error.code === UNSUPPORTED_PROTOCOL_VERSION && namesModern(error.data)
  if (!(error instanceof SdkHttpError) || error.status !== 400) return false
  const body = parseJson((error.data as { text?: unknown }).text) as { error?: { code?: unknown; data?: unknown } } | undefined
  return body?.error?.code === UNSUPPORTED_PROTOCOL_VERSION && namesModern(body.error.data)
}

/** How a server that speaks only the 2024-11-05 HTTP+SSE transport refuses a Streamable HTTP initialize POST. */
export function isLegacyRefusal(error: unknown): error is SdkHttpError {
  return error instanceof SdkHttpError && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403
}

function namesModern(data: unknown): boolean {
  const supported = (data as { supported?: unknown } | null | undefined)?.supported
  return Array.isArray(supported) && supported.includes(MODERN_REVISION)
}
