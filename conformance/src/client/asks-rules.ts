import type { SpecRef } from '../model.ts'
import { atLeast } from '../server/spec.ts'
import { citeRule, type ClientRule } from './rules.ts'

/**
 * Pure: the sentences that bind a client a server asks for roots, sampling or elicitation, as the
 * spec repository states them (modelcontextprotocol/modelcontextprotocol at
 * b0f60ba5409db7a6582440a7b473cc0398890f15: docs/specification/<rev>/client/{roots,sampling,
 * elicitation}.mdx and schema/<rev>/schema.ts), emphasis markup removed. asks.ts judges by them.
 */

export type AskFeature = 'roots' | 'sampling' | 'elicitation'

const page = (feature: AskFeature, from: ClientRule['from'], anchor: string, section: string, keyword: ClientRule['keyword'], quote: string): ClientRule => ({ from, page: `client/${feature}`, anchor, section, keyword, quote })

const DECLARE: Record<AskFeature, ClientRule> = {
  roots: page('roots', '2024-11-05', 'capabilities', 'Capabilities', 'MUST', 'Clients that support roots MUST declare the roots capability during initialization'),
  sampling: page('sampling', '2024-11-05', 'capabilities', 'Capabilities', 'MUST', 'Clients that support sampling MUST declare the sampling capability during initialization'),
  elicitation: page('elicitation', '2025-06-18', 'capabilities', 'Capabilities', 'MUST', 'Clients that support elicitation MUST declare the elicitation capability during initialization'),
}

/** The first revision that has the feature at all: a run at an older one is not judged on it. */
export function featureIn(feature: AskFeature, revision: string): boolean {
  return atLeast(revision, DECLARE[feature].from)
}

export function declareRule(feature: AskFeature, revision: string): SpecRef {
  return citeRule(DECLARE[feature], revision)
}

export const ROOT_URI = page('roots', '2024-11-05', 'root', 'Root', 'MUST', 'uri: Unique identifier for the root. This MUST be a file:// URI in the current specification.')

/** Stated from 2024-11-05 to 2025-11-25; 2026-07-28 removed the notification (its changelog, SEP-2575) and roots.listChanged with it. */
export const ROOTS_LIST_CHANGED = page('roots', '2024-11-05', 'root-list-changes', 'Root List Changes', 'MUST', 'When roots change, clients that support listChanged MUST send a notification')

export const ROOTS_ERRORS = page('roots', '2024-11-05', 'error-handling', 'Error Handling', 'SHOULD', 'Clients SHOULD return standard JSON-RPC errors for common failure cases: Client does not support roots: -32601 (Method not found)')

export const ELICITATION_MODE = page('elicitation', '2025-11-25', 'error-handling', 'Error Handling', 'MUST', 'Clients MUST return standard JSON-RPC errors for common failure cases: Server sends an elicitation/create request with a mode not declared in client capabilities: -32602 (Invalid params)')

/** URL mode's completion notification, 2025-11-25 only: 2026-07-28 has no notifications/elicitation/complete. */
export const ELICITATION_COMPLETE_IGNORED: ClientRule = { ...page('elicitation', '2025-11-25', 'completion-notifications-for-url-mode-elicitation', 'Completion Notifications for URL Mode Elicitation', 'MUST', 'Clients: MUST ignore notifications referencing unknown or already-completed IDs.'), until: '2025-11-25' }

export const ELICITATION_VALIDATE = page('elicitation', '2025-11-25', 'form-mode-security', 'Form Mode Security', 'SHOULD', 'Clients SHOULD validate all responses against the provided schema')

/** schema.ts (2025-06-18 on) ElicitResult: the shape every answer must have. */
export function elicitResultSchema(revision: string): SpecRef {
  const quote = 'ElicitResult { action: "accept" | "decline" | "cancel"; content?: { [key: string]: string | number | boolean | string[] } }'
  return { ref: `MCP ${revision} schema.ts ElicitResult: ${quote}`, url: `https://github.com/modelcontextprotocol/modelcontextprotocol/blob/b0f60ba5409db7a6582440a7b473cc0398890f15/schema/${revision}/schema.ts`, keyword: 'SCHEMA', quote }
}

/** schema.ts ElicitResult.content: a description with no RFC 2119 keyword (information when breached). */
export function elicitContentNote(revision: string): SpecRef {
  const quote = 'The submitted form data, only present when action is "accept" and mode was "form".'
  return { ref: `MCP ${revision} schema.ts ElicitResult.content: "${quote}"`, keyword: 'NONE', quote }
}

/** schema.ts CreateMessageResult: role, content and model are required. */
export function samplingResultSchema(revision: string): SpecRef {
  const quote = 'CreateMessageResult extends Result, SamplingMessage { model: string; stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | string }'
  return { ref: `MCP ${revision} schema.ts CreateMessageResult: ${quote}`, url: `https://github.com/modelcontextprotocol/modelcontextprotocol/blob/b0f60ba5409db7a6582440a7b473cc0398890f15/schema/${revision}/schema.ts`, keyword: 'SCHEMA', quote }
}

/** schema.ts ListRootsResult: a `roots` array of Root { uri: string; name?: string }. */
export function rootsResultSchema(revision: string): SpecRef {
  const quote = 'ListRootsResult { roots: Root[] }; Root { uri: string; name?: string }'
  return { ref: `MCP ${revision} schema.ts ListRootsResult: ${quote}`, keyword: 'SCHEMA', quote }
}

/** schema.ts (2025-11-25) CreateMessageRequestParams.tools: a MUST on the client, in the schema's own words. */
export function samplingToolsRule(revision: string): SpecRef {
  const quote = 'The client MUST return an error if this field is provided but ClientCapabilities.sampling.tools is not declared.'
  return { ref: `MCP ${revision} schema.ts CreateMessageRequestParams.tools: "${quote}"`, url: 'https://modelcontextprotocol.io/specification/2025-11-25/client/sampling#tools-in-sampling', keyword: 'MUST', quote }
}
