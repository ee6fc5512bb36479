/**
 * The Mcp-Name probes (./name-header-rules.ts): one request that names a listed resource or prompt,
 * sent with a correct, a wrong, no and a Base64-encoded Mcp-Name, each bounded by the run's
 * request timeout. Only reads: no tool is called.
 */
import { isObject } from '../check.ts'
import type { ModernRevision } from '../spec.ts'
import type { HttpWire } from '../wire/http.ts'
import type { RpcOutcome } from '../wire/types.ts'
import type { NameProbes } from './name-header.ts'
import { meta, variant } from './request-meta.ts'

/** A value that goes into a header as it is (RFC 9110 visible ASCII, and not the sentinel's shape). */
const HEADER_SAFE = /^[\x21-\x7e]{1,2000}$/
const SENTINEL = /^=\?base64\?.*\?=$/
const OTHER_NAME = 'mcp-conformance-other-name'

const entries = (outcome: RpcOutcome | undefined, member: string): Record<string, unknown>[] => {
  const found = outcome?.kind === 'result' && isObject(outcome.result) ? outcome.result[member] : undefined
  return Array.isArray(found) ? found.filter(isObject) : []
}
const safe = (value: unknown): value is string => typeof value === 'string' && HEADER_SAFE.test(value) && !SENTINEL.test(value)

/** The request to send: a listed resource's read, else a listed prompt that needs no argument. */
function target(resources: RpcOutcome | undefined, prompts: RpcOutcome | undefined): { method: string; key: 'uri' | 'name'; value: string } | undefined {
  const uri = entries(resources, 'resources').map((r) => r.uri).find(safe)
  if (uri !== undefined) return { method: 'resources/read', key: 'uri', value: uri }
  const free = (p: Record<string, unknown>) => !Array.isArray(p.arguments) || !p.arguments.some((a) => isObject(a) && a.required === true)
  const name = entries(prompts, 'prompts').filter(free).map((p) => p.name).find(safe)
  return name === undefined ? undefined : { method: 'prompts/get', key: 'name', value: name }
}

export type SendVia = (label: string, method: string, params: Record<string, unknown>, via: HttpWire) => Promise<RpcOutcome>

export async function probeNameHeader(wire: HttpWire, revision: ModernRevision, timeoutMs: number, lists: { resources?: RpcOutcome; prompts?: RpcOutcome }, send: SendVia): Promise<NameProbes | undefined> {
  const chosen = target(lists.resources, lists.prompts)
  if (!chosen) return undefined
  const { method, key, value } = chosen
  const label = `${method} of ${value}`
  const one = (how: string, header: string | undefined) =>
    send(`${label} ${how}`, method, { [key]: value, _meta: meta(revision) }, header === undefined ? variant(wire, revision, {}, timeoutMs) : variant(wire, revision, { 'mcp-name': header }, timeoutMs))
  const control = await one('with a correct Mcp-Name', value)
  const mismatch = await one('with a wrong Mcp-Name', OTHER_NAME)
  const missing = await one('without Mcp-Name', undefined)
  const encoded = await one('with a Base64 Mcp-Name', `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`)
  return { label, control, mismatch, missing, encoded }
}
