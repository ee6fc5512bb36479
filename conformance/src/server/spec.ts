/**
 * Pure: spec citations for the revision actually negotiated, so a check never cites a rule from
 * a revision the server did not agree to. Anchors are the headings of the published pages.
 */
import type { SpecRef } from '../model.ts'

/** Revisions this kit knows how to judge, newest first. */
export const KNOWN_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const
export const LATEST_REVISION = KNOWN_REVISIONS[0]
/** Sent when probing version negotiation: a well-formed revision no server supports. */
export const UNSUPPORTED_REVISION = '1999-01-01'

const BASE = 'https://modelcontextprotocol.io/specification'

export type SpecTopic =
  | 'lifecycle#initialization'
  | 'lifecycle#version-negotiation'
  | 'lifecycle#capability-negotiation'
  | 'lifecycle#shutdown'
  | 'messages#responses'
  | 'messages#notifications'
  | 'ping'
  | 'cancellation'
  | 'tools#listing-tools'
  | 'tools#tool-names'
  | 'tools#tool'
  | 'tools#calling-tools'
  | 'tools#error-handling'
  | 'tools#output-schema'
  | 'tools#tool-result'
  | 'json-schema-usage'
  | 'tasks#tool-level-negotiation'
  | 'pagination'
  | 'resources#listing-resources'
  | 'resources#reading-resources'
  | 'prompts#listing-prompts'
  | 'prompts#getting-a-prompt'
  | 'logging#setting-log-level'
  | 'transports#stdio'
  | 'transports#sending-messages-to-the-server'
  | 'transports#session-management'
  | 'transports#protocol-version-header'
  | 'transports#security-warning'

const PATHS: Record<SpecTopic, [path: string, label: string]> = {
  'lifecycle#initialization': ['basic/lifecycle#initialization', 'lifecycle: initialization'],
  'lifecycle#version-negotiation': ['basic/lifecycle#version-negotiation', 'lifecycle: version negotiation'],
  'lifecycle#capability-negotiation': ['basic/lifecycle#capability-negotiation', 'lifecycle: capability negotiation'],
  'lifecycle#shutdown': ['basic/lifecycle#shutdown', 'lifecycle: shutdown'],
  'messages#responses': ['basic#responses', 'base protocol: responses'],
  'messages#notifications': ['basic#notifications', 'base protocol: notifications'],
  ping: ['basic/utilities/ping', 'ping'],
  cancellation: ['basic/utilities/cancellation', 'cancellation'],
  'tools#listing-tools': ['server/tools#listing-tools', 'tools: listing tools'],
  'tools#tool-names': ['server/tools#tool-names', 'tools: tool names'],
  'tools#tool': ['server/tools#tool', 'tools: Tool data type'],
  'tools#calling-tools': ['server/tools#calling-tools', 'tools: calling tools'],
  'tools#error-handling': ['server/tools#error-handling', 'tools: error handling'],
  'tools#output-schema': ['server/tools#output-schema', 'tools: output schema'],
  'tools#tool-result': ['server/tools#tool-result', 'tools: tool result'],
  'json-schema-usage': ['basic#json-schema-usage', 'JSON Schema usage'],
  'tasks#tool-level-negotiation': ['basic/utilities/tasks#tool-level-negotiation', 'tasks: tool-level negotiation'],
  pagination: ['server/utilities/pagination', 'pagination'],
  'resources#listing-resources': ['server/resources#listing-resources', 'resources: listing resources'],
  'resources#reading-resources': ['server/resources#reading-resources', 'resources: reading resources'],
  'prompts#listing-prompts': ['server/prompts#listing-prompts', 'prompts: listing prompts'],
  'prompts#getting-a-prompt': ['server/prompts#getting-a-prompt', 'prompts: getting a prompt'],
  'logging#setting-log-level': ['server/utilities/logging#setting-log-level', 'logging: setting log level'],
  'transports#stdio': ['basic/transports#stdio', 'transports: stdio'],
  'transports#sending-messages-to-the-server': [
    'basic/transports#sending-messages-to-the-server',
    'transports: sending messages to the server',
  ],
  'transports#session-management': ['basic/transports#session-management', 'transports: session management'],
  'transports#protocol-version-header': ['basic/transports#protocol-version-header', 'transports: protocol version header'],
  'transports#security-warning': ['basic/transports#security-warning', 'transports: security warning'],
}

/** The citation of `topic` in `revision` (an unknown revision is cited as the latest one). */
export function spec(revision: string, topic: SpecTopic): SpecRef {
  const version = isKnownRevision(revision) ? revision : LATEST_REVISION
  const [path, label] = PATHS[topic]
  return { ref: `MCP ${version} ${label}`, url: `${BASE}/${version}/${path}` }
}

export function isKnownRevision(value: unknown): value is (typeof KNOWN_REVISIONS)[number] {
  return typeof value === 'string' && (KNOWN_REVISIONS as readonly string[]).includes(value)
}

/** Revisions are ISO dates, so string order is release order. */
export function atLeast(revision: string, minimum: string): boolean {
  return revision >= minimum
}

/** The bridge's own contract, for checks about what a client like ours makes of a server. */
export const BRIDGE_NAMING: SpecRef = { ref: 'mcp-bridge naming contract (DESIGN.md "Naming", seed 000)' }
