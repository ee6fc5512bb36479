/**
 * Pure: the sections a modern rule may cite. spec.ts lists the ones the clients' table also reads
 * (it feeds that table's digest and stays as it is); the sections only the server checks cite are
 * listed here and resolved the same way, as ../registry/topics.ts does for the tasks utility.
 */
import { MODERN_SECTIONS, modernSectionLabel, modernSectionUrl, type ModernRevision, type ModernTopic } from '../spec.ts'

const BASE = 'https://modelcontextprotocol.io/specification'

/** 2026-07-28 sections only server checks cite (./envelope-rules.ts, ./header-rules.ts). */
export const SERVER_MODERN_SECTIONS = {
  'basic#messages': ['basic/index#messages', 'base protocol: messages'],
  'basic#requests': ['basic/index#requests', 'base protocol: requests'],
  'basic#error-codes': ['basic/index#error-codes', 'base protocol: error codes'],
  'basic#notifications': ['basic/index#notifications', 'base protocol: notifications'],
  'stdio#receiving-messages': ['basic/transports/stdio#receiving-messages', 'transports: stdio: receiving messages'],
  'tools#x-mcp-header': ['server/tools#x-mcp-header', 'tools: x-mcp-header'],
  /** The page's opening paragraph, before its first section. */
  mrtr: ['basic/patterns/mrtr', 'multi round-trip requests'],
} as const satisfies Record<string, readonly [path: string, label: string]>

export type ServerModernTopic = keyof typeof SERVER_MODERN_SECTIONS
export type AnyModernTopic = ModernTopic | ServerModernTopic

function isServerTopic(topic: AnyModernTopic): topic is ServerModernTopic {
  return Object.hasOwn(SERVER_MODERN_SECTIONS, topic)
}

/** `page#anchor` of a topic, '' for what is no page of the spec (schema, JSON-RPC). */
export function modernTopicPath(topic: AnyModernTopic): string {
  return isServerTopic(topic) ? SERVER_MODERN_SECTIONS[topic][0] : MODERN_SECTIONS[topic][0]
}

export function modernTopicUrl(revision: ModernRevision, topic: AnyModernTopic): string {
  return isServerTopic(topic) ? `${BASE}/${revision}/${SERVER_MODERN_SECTIONS[topic][0]}` : modernSectionUrl(revision, topic)
}

export function modernTopicLabel(revision: ModernRevision, topic: AnyModernTopic): string {
  return isServerTopic(topic) ? `MCP ${revision} ${SERVER_MODERN_SECTIONS[topic][1]}` : modernSectionLabel(revision, topic)
}
