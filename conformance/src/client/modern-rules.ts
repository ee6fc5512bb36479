import type { SpecRef } from '../model.ts'
import type { ClientKeyword } from './rules.ts'

/**
 * Pure: the MCP 2026-07-28 sentences that bind a client, as rules.ts holds the legacy revisions'.
 * Kept apart because the kit's revision list (server/spec.ts) stops at 2025-11-25: these are
 * judged only for the requests a client sent in the modern era (eras.ts), never by revision.
 * Only sentences with a keyword that binds the client are here; the verdict's force comes from it
 * (verdicts.ts): MUST → fail, SHOULD → warn.
 */
export const MODERN_REVISION = '2026-07-28'

interface ModernRule {
  page: string
  anchor: string
  section: string
  keyword: ClientKeyword
  quote: string
}

export const MODERN_CLIENT_RULES = {
  'meta/required': {
    page: 'basic/index',
    anchor: 'meta',
    section: '_meta: Per-request protocol fields',
    keyword: 'MUST',
    quote: 'Client requests carry the following io.modelcontextprotocol/* fields in _meta; fields marked as required MUST be included on every request.',
  },
  'meta/client-info': {
    page: 'basic/index',
    anchor: 'meta',
    section: '_meta: Per-request protocol fields',
    keyword: 'SHOULD',
    quote: 'Clients SHOULD include io.modelcontextprotocol/clientInfo on every request unless specifically configured not to do so.',
  },
  'http/protocol-version-header': {
    page: 'basic/transports/streamable-http',
    anchor: 'protocol-version-header',
    section: 'Protocol Version Header',
    keyword: 'MUST',
    quote: 'Every POST request to the MCP endpoint MUST include an MCP-Protocol-Version header.',
  },
  'http/protocol-version-match': {
    page: 'basic/transports/streamable-http',
    anchor: 'protocol-version-header',
    section: 'Protocol Version Header',
    keyword: 'MUST',
    quote: "The header value MUST match the io.modelcontextprotocol/protocolVersion field carried in the request body's _meta.",
  },
  'http/metadata-headers': {
    page: 'basic/transports/streamable-http',
    anchor: 'sending-messages',
    section: 'Sending Messages',
    keyword: 'MUST',
    quote: 'The client MUST include the request metadata headers on each POST request.',
  },
} as const satisfies Record<string, ModernRule>

export type ModernRuleKey = keyof typeof MODERN_CLIENT_RULES

/** A 2026-07-28 rule as a citation: its page, its words, its keyword. */
export function modernSpec(key: ModernRuleKey): SpecRef {
  const rule: ModernRule = MODERN_CLIENT_RULES[key]
  const url = `https://modelcontextprotocol.io/specification/${MODERN_REVISION}/${rule.page}#${rule.anchor}`
  return { ref: `MCP ${MODERN_REVISION} §${rule.page} (${rule.section}): "${rule.quote}"`, url, keyword: rule.keyword, quote: rule.quote }
}
