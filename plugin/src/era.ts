import type { DiscoverResult } from '@modelcontextprotocol/client'
import { McpError } from '@modelcontextprotocol/sdk/types.js'

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

/** UnsupportedProtocolVersionError's code (2026-07-28 schema). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022

/**
 * Pure. A refused `initialize` that identifies a modern server: "a recognized modern JSON-RPC
 * error (such as UnsupportedProtocolVersionError) identifies a modern server" (2026-07-28
 * basic/versioning, Backward Compatibility), and its `data.supported` names the modern revision
 * the bridge speaks. Anything else (another code, no list, only other revisions) is not a reason
 * to change era: the refusal stays the connection's error.
 */
export function isModernRefusal(error: unknown): boolean {
  if (!(error instanceof McpError) || error.code !== UNSUPPORTED_PROTOCOL_VERSION) return false
  const data = error.data as { supported?: unknown } | undefined
  return typeof data === 'object' && data !== null && Array.isArray(data.supported) && data.supported.includes(MODERN_REVISION)
}
