import type { WireEntry } from '@mcp-bridge/fixtures-server'

/**
 * Pure: which protocol era a client spoke in a run, read from the fixture's wire. MCP 2026-07-28
 * (basic/versioning "Terminology"): a modern request carries its protocol version in `_meta`, a
 * legacy client opens with `initialize`.
 */

export type ClientEra = 'legacy' | 'modern'

/** The fixture eras a scenario can run at (fixtures-server `era`). */
export const RUN_ERAS = ['legacy', 'modern', 'dual'] as const
export type RunEra = (typeof RUN_ERAS)[number]

export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion'
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities'
export const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo'

/** The first modern revision: a `_meta` version at or after it is a modern request's. */
export const FIRST_MODERN = '2026-07-28'

type Message = { method?: unknown; id?: unknown; params?: { _meta?: Record<string, unknown> } }

/** The protocol version a message's `_meta` declares, if it declares one. */
export function metaVersion(msg: unknown): string | undefined {
  const meta = (msg as Message | undefined)?.params?._meta
  const version = meta && typeof meta === 'object' ? meta[PROTOCOL_VERSION_META] : undefined
  return typeof version === 'string' ? version : undefined
}

/** A request (method and id) whose `_meta` names a modern protocol version. */
export function isModernRequest(msg: unknown): boolean {
  const m = msg as Message | undefined
  const version = metaVersion(msg)
  return typeof m?.method === 'string' && m.id !== undefined && version !== undefined && version >= FIRST_MODERN
}

/**
 * The eras a client spoke to a (dual-era) fixture: legacy when it sent initialize; modern when it
 * sent server/discover or a request with a modern `_meta` version without initializing. A client
 * that probed with server/discover and then initialized (a dual-era client meeting a legacy
 * server) spoke legacy: its probe is how the fallback starts. Modern requests beyond the probe
 * count even beside an initialize. Empty when it sent no request at all.
 */
export function clientEras(wire: readonly WireEntry[]): ClientEra[] {
  let initialized = false
  let probed = false
  let modern = false
  for (const { dir, msg, invalid } of wire) {
    if (invalid || dir !== 'recv') continue
    const method = (msg as Message).method
    if (method === 'initialize') initialized = true
    else if (method === 'server/discover') probed = true
    else if (isModernRequest(msg)) modern = true
  }
  const eras: ClientEra[] = []
  if (initialized) eras.push('legacy')
  if (modern || (probed && !initialized)) eras.push('modern')
  return eras
}
