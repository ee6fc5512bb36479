/** The per-request _meta the modern probes send, and a second HTTP wire with headers of a probe's own. */
import { CLIENT_INFO } from '../client-info.ts'
import { HttpWire } from '../wire/http.ts'

export const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion'
export const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities'
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo'

/** The revision's _meta, without `omit` when given. */
export function meta(revision: string, omit?: string): Record<string, unknown> {
  const full: Record<string, unknown> = { [PROTOCOL_VERSION]: revision, [CLIENT_INFO_KEY]: CLIENT_INFO, [CLIENT_CAPABILITIES]: {} }
  if (omit) delete full[omit]
  return full
}

/** A second wire to the same HTTP endpoint that sends `headers` on every request (after the defaults). */
export function variant(wire: HttpWire, revision: string, headers: Record<string, string>, timeoutMs: number, methodHeader = true): HttpWire {
  const other = new HttpWire({ url: wire.target.url, headers: { ...wire.target.headers, ...headers } }, timeoutMs)
  other.protocolVersion = revision
  other.methodHeader = methodHeader
  return other
}
