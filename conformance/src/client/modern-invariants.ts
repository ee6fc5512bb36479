import type { HttpEntry, WireEntry } from '@mcp-bridge/fixtures-server'
import type { CheckResult } from '../model.ts'
import { CLIENT_CAPABILITIES_META, CLIENT_INFO_META, FIRST_MODERN, isModernRequest, PROTOCOL_VERSION_META, type RunEra } from './eras.ts'
import { modernSpec } from './modern-rules.ts'

type Http = HttpEntry['http']

/** Requests whose name travels in Mcp-Name (streamable-http "Standard Request Headers"). */
const NAMED = new Set(['tools/call', 'resources/read', 'prompts/get'])

/**
 * Pure: the 2026-07-28 rules for what a client sends in the modern era, judged only on the
 * requests it sent in that era: each one carrying a modern `_meta` version, and at a modern-only
 * fixture every request but `initialize` (a legacy client's opening, which the fixture refuses).
 * A legacy session's requests (after an initialize at a dual-era fixture) are the legacy rules'.
 */
export function checkModernInvariants(wire: readonly WireEntry[], http: readonly Http[] | undefined, era: RunEra): CheckResult[] {
  const judged = wire.filter(({ dir, msg, invalid }) => {
    if (invalid || dir !== 'recv') return false
    const m = msg as { method?: unknown; id?: unknown }
    if (typeof m.method !== 'string' || m.id === undefined) return false
    return isModernRequest(msg) || (era === 'modern' && m.method !== 'initialize')
  })
  const checks = [requiredMeta(judged), clientInfo(judged)]
  if (http) checks.push(metadataHeaders(http))
  return checks
}

const metaOf = (msg: unknown) => ((msg as { params?: { _meta?: unknown } }).params?._meta ?? {}) as Record<string, unknown>
const named = (msg: unknown, index: number) => `request ${index + 1} (${String((msg as { method: string }).method)})`

function requiredMeta(judged: readonly WireEntry[]): CheckResult {
  const id = 'invariant/modern-meta'
  const title = 'Every modern request carries the required _meta fields: protocol version and client capabilities'
  const spec = modernSpec('meta/required')
  const problems: string[] = []
  for (const [index, { msg }] of judged.entries()) {
    const meta = metaOf(msg)
    const missing = [
      typeof meta[PROTOCOL_VERSION_META] !== 'string' && PROTOCOL_VERSION_META,
      (typeof meta[CLIENT_CAPABILITIES_META] !== 'object' || meta[CLIENT_CAPABILITIES_META] === null) && CLIENT_CAPABILITIES_META,
    ].filter((key): key is string => key !== false)
    if (missing.length) problems.push(`${named(msg, index)} carried no ${missing.join(' and no ')} in _meta`)
  }
  if (problems.length) return { id, title, status: 'fail', message: problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (+${problems.length - 3} more)` : ''), spec }
  if (!judged.length) return { id, title, status: 'skip', message: 'nothing to judge: the client sent no request in the modern era', spec }
  return { id, title, status: 'pass', message: `${judged.length} modern requests, each with both required fields`, spec }
}

function clientInfo(judged: readonly WireEntry[]): CheckResult {
  const id = 'invariant/modern-client-info'
  const title = 'Every modern request names the client in _meta'
  const spec = modernSpec('meta/client-info')
  const without = judged.filter(({ msg }) => typeof metaOf(msg)[CLIENT_INFO_META] !== 'object')
  if (without.length) return { id, title, status: 'warn', message: `${without.length} of ${judged.length} modern requests carried no ${CLIENT_INFO_META}, e.g. ${named(without[0]!.msg, judged.indexOf(without[0]!))}`, spec }
  if (!judged.length) return { id, title, status: 'skip', message: 'nothing to judge: the client sent no request in the modern era', spec }
  return { id, title, status: 'pass', message: `${judged.length} modern requests, each naming the client`, spec }
}

/**
 * Every modern request POST carries MCP-Protocol-Version equal to its body's `_meta` version,
 * Mcp-Method, and Mcp-Name where the method names something; a notification POST is not judged. The log holds whether Mcp-Name was sent, not the
 * body's name: the fixture itself refuses a mismatch (-32020), which the client then sees.
 */
function metadataHeaders(http: readonly Http[]): CheckResult {
  const id = 'invariant/modern-http-headers'
  const title = 'Every modern POST carries MCP-Protocol-Version (matching _meta), Mcp-Method and, where needed, Mcp-Name'
  let judged = 0
  const problems: Array<{ key: 'http/protocol-version-header' | 'http/protocol-version-match' | 'http/metadata-headers'; text: string }> = []
  for (const [index, request] of http.entries()) {
    if (request.path !== '/mcp' || request.method !== 'POST' || request.metaVersion === undefined || request.metaVersion < FIRST_MODERN) continue
    // A notification is answered 202 whatever its headers say: the headers route requests, so only requests are judged.
    if (request.rpc?.startsWith('notifications/')) continue
    judged++
    const where = `POST ${index + 1} (${request.rpc ?? 'no method'}, answered ${request.status})`
    if (request.protocolVersion === undefined) problems.push({ key: 'http/protocol-version-header', text: `${where} carried no MCP-Protocol-Version` })
    else if (request.protocolVersion !== request.metaVersion) problems.push({ key: 'http/protocol-version-match', text: `${where} carried MCP-Protocol-Version ${request.protocolVersion}, its _meta ${request.metaVersion}` })
    if (request.mcpMethod === undefined) problems.push({ key: 'http/metadata-headers', text: `${where} carried no Mcp-Method` })
    else if (request.mcpMethod !== request.rpc) problems.push({ key: 'http/metadata-headers', text: `${where} carried Mcp-Method ${JSON.stringify(request.mcpMethod)}, its body ${request.rpc}` })
    if (request.rpc !== undefined && NAMED.has(request.rpc) && request.mcpName === undefined) problems.push({ key: 'http/metadata-headers', text: `${where} carried no Mcp-Name` })
  }
  if (problems.length) return { id, title, status: 'fail', message: problems.slice(0, 3).map((p) => p.text).join('; ') + (problems.length > 3 ? ` (+${problems.length - 3} more)` : ''), spec: modernSpec(problems[0]!.key) }
  const spec = modernSpec('http/metadata-headers')
  if (!judged) return { id, title, status: 'skip', message: 'nothing to judge: no modern POST reached the MCP endpoint', spec }
  return { id, title, status: 'pass', message: `${judged} modern POSTs, each with the headers it needs`, spec }
}
