import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'

/**
 * Which protocol era a fixture speaks (MCP 2026-07-28, basic/versioning "Terminology"): legacy
 * revisions open with an `initialize` handshake, modern ones carry version, identity and
 * capabilities in every request's `_meta`; a dual-era server serves both. Pure: the engine and the
 * HTTP edge ask `admit` what to do with each request and answer what it says.
 */

export const ERAS = ['legacy', 'modern', 'dual'] as const
export type Era = (typeof ERAS)[number]

/** The modern revisions the fixture implements. */
export const MODERN_VERSIONS = ['2026-07-28'] as const

/** The per-request and per-response `_meta` keys (basic/index "Per-request protocol fields"). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const

/** The log levels of RFC 5424 that logging names (server/utilities/logging). */
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const

/** Error codes of 2026-07-28 (schema.ts). */
export const HEADER_MISMATCH = -32020
export const UNSUPPORTED_PROTOCOL_VERSION = -32022

/** Methods 2026-07-28 removed: a modern request for one is a method the server does not implement. */
const REMOVED_METHODS = new Set(['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'])

/** Every version the fixture answers at its era, newest first (the `supported` list of -32022). */
export function supportedVersions(era: Era): string[] {
  const legacy = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== '2024-10-07')
  if (era === 'legacy') return legacy
  if (era === 'modern') return [...MODERN_VERSIONS]
  return [...MODERN_VERSIONS, ...legacy]
}

/** The protocol version a request declares in its `_meta`, when it declares one (a modern request). */
export function requestedVersion(message: unknown): string | undefined {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta
  const version = meta && typeof meta === 'object' ? meta[META.protocolVersion] : undefined
  return typeof version === 'string' ? version : undefined
}

export interface Refusal {
  /** The HTTP status the Streamable HTTP binding gives this error. */
  status: number
  code: number
  message: string
  data?: unknown
}

/**
 * What a server of `era` does with one request: serve it in an era, or refuse it. A legacy fixture
 * never looks at `_meta` (a legacy server knows nothing of it: server/discover is just an unknown
 * method to it). `headers` (HTTP only): the request's `MCP-Protocol-Version`, `Mcp-Method` and
 * `Mcp-Name`, which a modern request must carry and match (streamable-http "Server Validation").
 */
export function admit(era: Era, message: { method: string; params?: unknown }, headers?: (name: string) => string | null): { serve: 'modern' | 'legacy' } | { refuse: Refusal } {
  if (era === 'legacy') return { serve: 'legacy' }
  const version = requestedVersion(message)
  if (message.method === 'initialize') {
    if (era === 'dual') return { serve: 'legacy' }
    // A modern-only server SHOULD name the versions it supports in any error it returns to an
    // initialize request (versioning "Backward Compatibility"); the code is implementation-defined.
    const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion
    return { refuse: unsupported(era, typeof requested === 'string' ? requested : 'none') }
  }
  if (version === undefined) {
    // server/discover exists in modern revisions only: to the legacy half it is an unknown method.
    if (era === 'dual' && message.method === 'server/discover') return { refuse: { status: 404, code: -32601, message: 'Method not found' } }
    if (era === 'dual') return { serve: 'legacy' }
    return { refuse: { status: 400, code: -32602, message: `Invalid params: _meta["${META.protocolVersion}"] is required` } }
  }
  // A legacy revision named in `_meta` is no modern request either: the version is refused.
  if (!(MODERN_VERSIONS as readonly string[]).includes(version)) return { refuse: unsupported(era, version) }
  const meta = (message.params as { _meta: Record<string, unknown> })._meta
  if (typeof meta[META.clientCapabilities] !== 'object' || meta[META.clientCapabilities] === null) {
    return { refuse: { status: 400, code: -32602, message: `Invalid params: _meta["${META.clientCapabilities}"] is required` } }
  }
  if (headers) {
    const mismatch = headerMismatch(message, version, headers)
    if (mismatch) return { refuse: { status: 400, code: HEADER_MISMATCH, message: `Header mismatch: ${mismatch}` } }
  }
  if (REMOVED_METHODS.has(message.method)) return { refuse: { status: 404, code: -32601, message: `Method not found: ${message.method} is not part of ${version}` } }
  // server/utilities/logging "Error Handling": a log level that does not exist is Invalid params.
  const level = meta[META.logLevel]
  if (level !== undefined && !(LOG_LEVELS as readonly unknown[]).includes(level)) return { refuse: { status: 400, code: -32602, message: `Invalid params: _meta["${META.logLevel}"] is not a log level` } }
  return { serve: 'modern' }
}

function unsupported(era: Era, requested: string): Refusal {
  const supported = supportedVersions(era)
  return {
    status: 400,
    code: UNSUPPORTED_PROTOCOL_VERSION,
    message: `Unsupported protocol version: ${requested} (supported: ${supported.join(', ')})`,
    data: { supported, requested },
  }
}

/** The first required header a modern HTTP request lacks or contradicts its body with. */
function headerMismatch(message: { method: string; params?: unknown }, version: string, headers: (name: string) => string | null): string | undefined {
  const expected: Array<[string, string]> = [
    ['MCP-Protocol-Version', version],
    ['Mcp-Method', message.method],
  ]
  const params = message.params as { name?: unknown; uri?: unknown } | undefined
  const name = message.method === 'resources/read' ? params?.uri : params?.name
  if (['tools/call', 'resources/read', 'prompts/get'].includes(message.method) && typeof name === 'string') expected.push(['Mcp-Name', name])
  for (const [header, value] of expected) {
    const sent = headers(header)
    if (sent === null) return `${header} header is missing`
    if (decodeHeader(sent) !== value) return `${header} header value does not match the body`
  }
  return undefined
}

/** `=?base64?…?=` is the sentinel a client uses for values that are not plain ASCII (streamable-http "Value Encoding"). */
function decodeHeader(value: string): string {
  const match = /^=\?base64\?(.*)\?=$/.exec(value)
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : value
}

/** A modern result: `resultType` (2026-07-28 servers MUST include it; one already set, input_required, stays) and the server's identity in `_meta`. */
export function modernResult(result: Record<string, unknown>, serverInfo: { name: string; version: string }): Record<string, unknown> {
  const meta = (result._meta as Record<string, unknown> | undefined) ?? {}
  return { ...result, resultType: result.resultType ?? 'complete', _meta: { ...meta, [META.serverInfo]: serverInfo } }
}
