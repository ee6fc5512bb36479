/**
 * Pure: the sections a modern rule may cite. spec.ts lists the ones the clients' table also reads
 * (it feeds that table's digest and stays as it is); the sections only the server checks cite are
 * listed here and resolved the same way, as ../registry/topics.ts does for the tasks utility.
 */
import { MODERN_SECTIONS, modernSectionLabel, modernSectionUrl, type ModernRevision, type ModernTopic } from '../spec.ts'

const BASE = 'https://modelcontextprotocol.io/specification'

/** 2026-07-28 sections only server checks cite (./envelope-rules.ts, ./header-rules.ts and the rest of this folder). */
export const SERVER_MODERN_SECTIONS = {
  'basic#messages': ['basic/index#messages', 'base protocol: messages'],
  'basic#statelessness': ['basic/index#statelessness', 'base protocol: statelessness'],
  'basic#requests': ['basic/index#requests', 'base protocol: requests'],
  'basic#error-codes': ['basic/index#error-codes', 'base protocol: error codes'],
  'basic#notifications': ['basic/index#notifications', 'base protocol: notifications'],
  'stdio#receiving-messages': ['basic/transports/stdio#receiving-messages', 'transports: stdio: receiving messages'],
  /** The stdio page's opening paragraph, before its first section. */
  stdio: ['basic/transports/stdio', 'transports: stdio'],
  'stdio#shutdown': ['basic/transports/stdio#shutdown', 'transports: stdio: shutdown'],
  'transports#messages': ['basic/transports/index#messages', 'transports: messages'],
  'tools#x-mcp-header': ['server/tools#x-mcp-header', 'tools: x-mcp-header'],
  /** The page's opening paragraph, before its first section. */
  mrtr: ['basic/patterns/mrtr', 'multi round-trip requests'],
  'basic#resulttype': ['basic/index#resulttype', 'base protocol: result type'],
  'basic#schema-dialect': ['basic/index#schema-dialect', 'base protocol: JSON Schema dialect'],
  'basic#schema-validation': ['basic/index#schema-validation', 'base protocol: schema validation'],
  'versioning#extension-negotiation': ['basic/versioning#extension-negotiation', 'versioning: extension negotiation'],
  'streamable-http#receiving-messages': ['basic/transports/streamable-http#receiving-messages', 'transports: Streamable HTTP: receiving messages'],
  'streamable-http#sending-messages': ['basic/transports/streamable-http#sending-messages', 'transports: Streamable HTTP: sending messages'],
  'streamable-http#value-encoding': ['basic/transports/streamable-http#value-encoding', 'transports: Streamable HTTP: value encoding'],
  'streamable-http#earlier-revisions': ['basic/transports/streamable-http#earlier-streamable-http-revisions', 'transports: Streamable HTTP: earlier revisions'],
  'subscriptions#opening-a-stream': ['basic/patterns/subscriptions#opening-a-stream', 'subscriptions: opening a stream'],
  cancellation: ['basic/patterns/cancellation', 'cancellation'],
  'cancellation#behavior-requirements': ['basic/patterns/cancellation#behavior-requirements', 'cancellation: behavior requirements'],
  'cancellation#error-handling': ['basic/patterns/cancellation#error-handling', 'cancellation: error handling'],
  'progress#progress-flow': ['basic/patterns/progress#progress-flow', 'progress: progress flow'],
  'progress#behavior-requirements': ['basic/patterns/progress#behavior-requirements', 'progress: behavior requirements'],
  'progress#implementation-notes': ['basic/patterns/progress#implementation-notes', 'progress: implementation notes'],
  'logging#capabilities': ['server/utilities/logging#capabilities', 'logging: capabilities'],
  'logging#per-request-log-level': ['server/utilities/logging#per-request-log-level', 'logging: per-request log level'],
  'logging#error-handling': ['server/utilities/logging#error-handling', 'logging: error handling'],
  'completion#capabilities': ['server/utilities/completion#capabilities', 'completion: capabilities'],
  'completion#error-handling': ['server/utilities/completion#error-handling', 'completion: error handling'],
  'pagination#error-handling': ['server/utilities/pagination#error-handling', 'pagination: error handling'],
  'caching#interaction-with-pagination': ['server/utilities/caching#interaction-with-pagination', 'caching: interaction with pagination'],
  'pagination#implementation-guidelines': ['server/utilities/pagination#implementation-guidelines', 'pagination: implementation guidelines'],
  'prompts#error-handling': ['server/prompts#error-handling', 'prompts: error handling'],
  'prompts#image-content': ['server/prompts#image-content', 'prompts: image content'],
  'prompts#audio-content': ['server/prompts#audio-content', 'prompts: audio content'],
  'prompts#embedded-resources': ['server/prompts#embedded-resources', 'prompts: embedded resources'],
  'prompts#implementation-considerations': ['server/prompts#implementation-considerations', 'prompts: implementation considerations'],
  'tools#tool': ['server/tools#tool', 'tools: tool'],
  'tools#output-schema': ['server/tools#output-schema', 'tools: output schema'],
  'tools#structured-content': ['server/tools#structured-content', 'tools: structured content'],
  'tools#embedded-resources': ['server/tools#embedded-resources', 'tools: embedded resources'],
  'tools#security-considerations': ['server/tools#security-considerations', 'tools: security considerations'],
  'resources#custom-uri-schemes': ['server/resources#custom-uri-schemes', 'resources: custom URI schemes'],
  'resources#security-considerations': ['server/resources#security-considerations', 'resources: security considerations'],
  'authorization#overview': ['basic/authorization/index#overview', 'authorization: overview'],
  'authorization#scope-selection-strategy': ['basic/authorization/index#scope-selection-strategy', 'authorization: scope selection strategy'],
  'authorization#token-handling': ['basic/authorization/index#token-handling', 'authorization: token handling'],
  'authorization#refresh-tokens': ['basic/authorization/index#refresh-tokens', 'authorization: refresh tokens'],
  'authorization#error-handling': ['basic/authorization/index#error-handling', 'authorization: error handling'],
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
