/**
 * Pure: the revisions the kit judges, and where each section of each revision is published, so a
 * check always cites the page of the revision the server actually negotiated.
 */

/**
 * The legacy revisions (an initialize handshake opens a session) this kit judges in full, newest
 * first. 2026-07-28 and later are modern (no initialize; see MODERN_REVISIONS): they are not in
 * this list, because every check here is a legacy-era check (initialize, ping, sessions, …).
 */
export const KNOWN_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const
export type Revision = (typeof KNOWN_REVISIONS)[number]
export const LATEST_REVISION = KNOWN_REVISIONS[0]
export const OLDEST_REVISION: Revision = '2024-11-05'
/** Sent when probing version negotiation: a well-formed revision no server supports. */
export const UNSUPPORTED_REVISION = '1999-01-01'

const BASE = 'https://modelcontextprotocol.io/specification'

/** Sections of the spec the checks cite: `page#anchor` as published, or an external document. */
export const SECTIONS = {
  'base#messages': ['basic#messages', 'base protocol: messages'],
  'base#requests': ['basic#requests', 'base protocol: requests'],
  'base#responses': ['basic#responses', 'base protocol: responses'],
  'base#notifications': ['basic#notifications', 'base protocol: notifications'],
  'base#batching': ['basic#batching', 'base protocol: batching'],
  'base#json-schema-usage': ['basic#json-schema-usage', 'base protocol: JSON Schema usage'],
  'lifecycle#initialization': ['basic/lifecycle#initialization', 'lifecycle: initialization'],
  'lifecycle#version-negotiation': ['basic/lifecycle#version-negotiation', 'lifecycle: version negotiation'],
  'lifecycle#capability-negotiation': ['basic/lifecycle#capability-negotiation', 'lifecycle: capability negotiation'],
  'lifecycle#operation': ['basic/lifecycle#operation', 'lifecycle: operation'],
  'lifecycle#shutdown': ['basic/lifecycle#shutdown', 'lifecycle: shutdown'],
  ping: ['basic/utilities/ping', 'ping'],
  cancellation: ['basic/utilities/cancellation', 'cancellation'],
  progress: ['basic/utilities/progress', 'progress'],
  'tasks#tool-level-negotiation': ['basic/utilities/tasks#tool-level-negotiation', 'tasks: tool-level negotiation'],
  'tools#capabilities': ['server/tools#capabilities', 'tools: capabilities'],
  'tools#listing-tools': ['server/tools#listing-tools', 'tools: listing tools'],
  'tools#tool': ['server/tools#tool', 'tools: Tool data type'],
  'tools#tool-names': ['server/tools#tool-names', 'tools: tool names'],
  'tools#tool-result': ['server/tools#tool-result', 'tools: tool result'],
  'tools#structured-content': ['server/tools#structured-content', 'tools: structured content'],
  'tools#output-schema': ['server/tools#output-schema', 'tools: output schema'],
  'tools#error-handling': ['server/tools#error-handling', 'tools: error handling'],
  'tools#security-considerations': ['server/tools#security-considerations', 'tools: security considerations'],
  pagination: ['server/utilities/pagination', 'pagination'],
  'pagination#implementation-guidelines': ['server/utilities/pagination#implementation-guidelines', 'pagination: implementation guidelines'],
  'resources#capabilities': ['server/resources#capabilities', 'resources: capabilities'],
  'resources#listing-resources': ['server/resources#listing-resources', 'resources: listing resources'],
  'resources#reading-resources': ['server/resources#reading-resources', 'resources: reading resources'],
  'resources#resource-templates': ['server/resources#resource-templates', 'resources: resource templates'],
  'resources#subscriptions': ['server/resources#subscriptions', 'resources: subscriptions'],
  'resources#error-handling': ['server/resources#error-handling', 'resources: error handling'],
  'subscriptions#acknowledgment': ['basic/patterns/subscriptions#acknowledgment', 'subscriptions: acknowledgment'],
  'mrtr#supported-requests': ['basic/patterns/mrtr#supported-requests', 'multi round-trip requests: supported requests'],
  'mrtr#server-requirements': ['basic/patterns/mrtr#server-requirements-basic-workflow', 'multi round-trip requests: server requirements'],
  'caching#cacheable-results': ['server/utilities/caching#cacheable-results', 'caching: cacheable results'],
  'caching#ttl': ['server/utilities/caching#time-to-live-ttl-field', 'caching: time-to-live (TTL) field'],
  'prompts#capabilities': ['server/prompts#capabilities', 'prompts: capabilities'],
  'prompts#listing-prompts': ['server/prompts#listing-prompts', 'prompts: listing prompts'],
  'prompts#getting-a-prompt': ['server/prompts#getting-a-prompt', 'prompts: getting a prompt'],
  'prompts#error-handling': ['server/prompts#error-handling', 'prompts: error handling'],
  'completion#capabilities': ['server/utilities/completion#capabilities', 'completion: capabilities'],
  'completion#requesting-completions': ['server/utilities/completion#requesting-completions', 'completion: requesting completions'],
  'completion#error-handling': ['server/utilities/completion#error-handling', 'completion: error handling'],
  'logging#capabilities': ['server/utilities/logging#capabilities', 'logging: capabilities'],
  'logging#setting-log-level': ['server/utilities/logging#setting-log-level', 'logging: setting log level'],
  /** The page's opening paragraph, before its first section. */
  transports: ['basic/transports', 'transports'],
  'transports#stdio': ['basic/transports#stdio', 'transports: stdio'],
  'transports#security-warning': ['basic/transports#security-warning', 'transports: security warning'],
  'transports#sending-messages-to-the-server': ['basic/transports#sending-messages-to-the-server', 'transports: sending messages to the server'],
  'transports#listening-for-messages-from-the-server': [
    'basic/transports#listening-for-messages-from-the-server',
    'transports: listening for messages from the server',
  ],
  'transports#session-management': ['basic/transports#session-management', 'transports: session management'],
  'transports#protocol-version-header': ['basic/transports#protocol-version-header', 'transports: protocol version header'],
  /** The revision's schema.ts, which the spec calls the source of truth for every message. */
  schema: ['', 'schema'],
  /** JSON-RPC 2.0, which every MCP message MUST follow (base protocol: messages). */
  'jsonrpc#response-object': ['', 'JSON-RPC 2.0 response object'],
  'jsonrpc#notification': ['', 'JSON-RPC 2.0 notification'],
  /** The "jsonrpc" member, defined alike for the request and the response object. */
  'jsonrpc#version': ['', 'JSON-RPC 2.0 request and response objects'],
  /** Not the spec: what a client like ours (the mcp-bridge plugin) does with a server's tools. */
  bridge: ['', 'mcp-bridge naming contract (DESIGN.md "Naming")'],
} as const satisfies Record<string, readonly [path: string, label: string]>

export type SpecTopic = keyof typeof SECTIONS

/**
 * Where `topic` is published for `revision`: the page, and the anchor the published site derives
 * from the section's heading. 2024-11-05 kept the message rules on their own page, whose
 * requirement that every message follow JSON-RPC is its opening paragraph (no heading, so no anchor).
 */
export function sectionUrl(revision: Revision, topic: SpecTopic): string | undefined {
  if (topic === 'bridge') return undefined
  if (topic === 'schema') return `https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/${revision}/schema.ts`
  if (topic === 'jsonrpc#response-object') return 'https://www.jsonrpc.org/specification#response_object'
  if (topic === 'jsonrpc#notification') return 'https://www.jsonrpc.org/specification#notification'
  if (topic === 'jsonrpc#version') return 'https://www.jsonrpc.org/specification#request_object'
  let path: string = SECTIONS[topic][0]
  if (revision === '2024-11-05' && topic === 'base#messages') path = 'basic/messages'
  else if (revision === '2024-11-05' && path.startsWith('basic#') && topic !== 'base#json-schema-usage') path = path.replace('basic#', 'basic/messages#')
  return `${BASE}/${revision}/${path}`
}

/** How a citation names `topic` in `revision`, always starting "MCP <revision>" for spec sections. */
export function sectionLabel(revision: Revision, topic: SpecTopic): string {
  const label = SECTIONS[topic][1]
  if (topic === 'bridge') return label
  if (topic.startsWith('jsonrpc#')) return `MCP ${revision} base protocol → ${label}`
  return `MCP ${revision} ${label}`
}

export function isKnownRevision(value: unknown): value is Revision {
  return typeof value === 'string' && (KNOWN_REVISIONS as readonly string[]).includes(value)
}

/** A revision the kit can judge: the value itself if known, else the latest. */
export function knownRevision(value: string): Revision {
  return isKnownRevision(value) ? value : LATEST_REVISION
}

/** Revisions are ISO dates, so string order is release order. */
export function atLeast(revision: string, minimum: string): boolean {
  return revision >= minimum
}

/**
 * Modern revisions: "protocol versions that convey version, identity, and capabilities as
 * per-request metadata (revision 2026-07-28 and later)" (MCP 2026-07-28 basic/versioning,
 * Terminology). Server mode recognises a server that speaks only these and judges it by the
 * checks of modern/ (registry: modern/registry.ts); the revision's other rules are reported as
 * not yet judged, never failed.
 */
export const MODERN_REVISIONS = ['2026-07-28'] as const
export type ModernRevision = (typeof MODERN_REVISIONS)[number]
export const LATEST_MODERN_REVISION: ModernRevision = MODERN_REVISIONS[0]

/** Sections of 2026-07-28 the modern checks cite: `page#anchor` as published, and a label. */
export const MODERN_SECTIONS = {
  'versioning#protocol-version-negotiation': ['basic/versioning#protocol-version-negotiation', 'versioning: protocol version negotiation'],
  'versioning#backward-compatibility': ['basic/versioning#backward-compatibility-with-initialization-based-versions', 'versioning: backward compatibility with initialization-based versions'],
  /** The page's opening paragraph, before its first section. */
  discover: ['server/discover', 'discovery'],
  'streamable-http#protocol-version-header': ['basic/transports/streamable-http#protocol-version-header', 'transports: Streamable HTTP: protocol version header'],
  'basic#result-responses': ['basic/index#result-responses', 'base protocol: result responses'],
  'basic#error-responses': ['basic/index#error-responses', 'base protocol: error responses'],
  'basic#meta': ['basic/index#meta', 'base protocol: _meta'],
  'streamable-http#security': ['basic/transports/streamable-http#security--endpoint', 'transports: Streamable HTTP: security & endpoint'],
  'streamable-http#server-validation': ['basic/transports/streamable-http#server-validation', 'transports: Streamable HTTP: server validation'],
  'streamable-http#custom-headers': ['basic/transports/streamable-http#server-behavior-for-custom-headers', 'transports: Streamable HTTP: server behavior for custom headers'],
  'tools#capabilities': ['server/tools#capabilities', 'tools: capabilities'],
  'tools#tool-names': ['server/tools#tool-names', 'tools: tool names'],
  'prompts#capabilities': ['server/prompts#capabilities', 'prompts: capabilities'],
  'resources#capabilities': ['server/resources#capabilities', 'resources: capabilities'],
  'resources#error-handling': ['server/resources#error-handling', 'resources: error handling'],
  'subscriptions#acknowledgment': ['basic/patterns/subscriptions#acknowledgment', 'subscriptions: acknowledgment'],
  'mrtr#supported-requests': ['basic/patterns/mrtr#supported-requests', 'multi round-trip requests: supported requests'],
  'mrtr#server-requirements': ['basic/patterns/mrtr#server-requirements-basic-workflow', 'multi round-trip requests: server requirements'],
  'caching#cacheable-results': ['server/utilities/caching#cacheable-results', 'caching: cacheable results'],
  'caching#ttl': ['server/utilities/caching#time-to-live-ttl-field', 'caching: time-to-live (TTL) field'],
  /** The revision's schema.ts. */
  schema: ['', 'schema'],
  'jsonrpc#response-object': ['', 'JSON-RPC 2.0 response object'],
} as const satisfies Record<string, readonly [path: string, label: string]>

export type ModernTopic = keyof typeof MODERN_SECTIONS

export function modernSectionUrl(revision: ModernRevision, topic: ModernTopic): string {
  if (topic === 'schema') return `https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/${revision}/schema.ts`
  if (topic === 'jsonrpc#response-object') return 'https://www.jsonrpc.org/specification#response_object'
  return `${BASE}/${revision}/${MODERN_SECTIONS[topic][0]}`
}

export function modernSectionLabel(revision: ModernRevision, topic: ModernTopic): string {
  const label = MODERN_SECTIONS[topic][1]
  if (topic === 'jsonrpc#response-object') return `MCP ${revision} base protocol → ${label}`
  return `MCP ${revision} ${label}`
}

export function isModernRevision(value: unknown): value is ModernRevision {
  return typeof value === 'string' && (MODERN_REVISIONS as readonly string[]).includes(value)
}

/**
 * Every revision the spec has published, legacy and modern. A protocolVersion outside this list
 * is no protocol version at all, so no server can support it: answering initialize with one
 * breaks version negotiation, however well-formed the date.
 */
export function isPublishedRevision(value: unknown): boolean {
  return isKnownRevision(value) || isModernRevision(value)
}
