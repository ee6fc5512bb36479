/**
 * Pure: the checks for a server that speaks a modern revision (2026-07-28: no initialize, version
 * and capabilities in each request's _meta), each with the sentence of 2026-07-28 it enforces.
 * Kept apart from the legacy registry (../registry), whose rules hold "from a revision on" across
 * the initialize-based revisions only: 2026-07-28 removed or replaced many of them (ping,
 * sessions, initialize itself), so no legacy rule carries over to a modern server by default.
 */
import { TOOL_CALL } from './call-rules.ts'
import { EARLIER_TRAFFIC } from './earlier-rules.ts'
import { ENVELOPE_CHECKS } from './envelope-rules.ts'
import { X_MCP_HEADER } from './header-rules.ts'
import { META_KEYS, MISSING_CAPABILITY, RESULT_SERVER_INFO } from './meta-rules.ts'
import { NAME_HEADER } from './name-header-rules.ts'
import { PROMPT_CONTENT } from './prompt-rules.ts'
import { PAGES } from './page-rules.ts'
import { PARAM_HEADERS, PARAM_NUMERIC } from './param-rules.ts'
import { STATELESS } from './stateless-rules.ts'
import { UNASKED_NOTIFICATIONS } from './notice-rules.ts'
import { MODERN_POSTS } from './post-rules.ts'
import { MODERN_SSE_CHECKS } from './sse-rules.ts'
import { MODERN_STDIO_CHECKS } from './stdio-rules.ts'
import { CAPABILITY_DECLARED, RESOURCE_READ, STANDARD_ERRORS, TOOL_LIST } from './probe-rules.ts'
import { REPLY, REQUEST_CHECKS } from './rules.ts'
import type { ModernCheckDef } from './types.ts'

import { MODERN_AUTH_CHECKS } from './auth-rules.ts'
export type { ModernCheckDef, ModernRule } from './types.ts'

export const INITIALIZE_REFUSAL: ModernCheckDef = {
  id: 'modern/initialize-refusal',
  title: 'a modern-only server names its supported versions when it refuses initialize',
  how: 'the legacy initialize every run opens with; when it is refused with a JSON-RPC error and server/discover shows a server of a modern revision only, the error names the versions it supports (in data.supported, or in its message)',
  rules: [
    {
      topic: 'versioning#backward-compatibility',
      keyword: 'SHOULD',
      quote:
        'A server that supports only modern versions SHOULD name the protocol versions it supports in any error it returns to an initialize request, on any transport: legacy clients have no fall-forward mechanism, and this message may be the only diagnostic they can surface to users.',
    },
  ],
}

export const DISCOVER: ModernCheckDef = {
  id: 'modern/discover',
  title: 'server/discover returns a valid DiscoverResult',
  how: 'server/discover with the per-request _meta of 2026-07-28 (protocolVersion, clientInfo, empty clientCapabilities; over HTTP also the MCP-Protocol-Version and Mcp-Method headers); the result is checked against DiscoverResult of the revision’s schema.ts',
  rules: [
    {
      topic: 'discover',
      keyword: 'MUST',
      quote: "server/discover lets a client query a server's supported protocol versions, capabilities, and identity before sending any other requests. Servers MUST implement it.",
    },
    {
      topic: 'schema',
      keyword: 'SCHEMA',
      quote: 'DiscoverResult { resultType: ResultType; supportedVersions: string[]; capabilities: ServerCapabilities; instructions?: string; ttlMs: number (minimum 0); cacheScope: "public" | "private"; _meta?: ResultMetaObject }',
      case: 'shape',
    },
    REPLY,
  ],
}

export const SERVER_INFO: ModernCheckDef = {
  id: 'modern/server-info',
  title: 'the DiscoverResult names the server software',
  how: 'the _meta of the DiscoverResult: io.modelcontextprotocol/serverInfo is present and an Implementation (name and version are strings)',
  rules: [
    { topic: 'discover', keyword: 'SHOULD', quote: "_meta['io.modelcontextprotocol/serverInfo']: Name and version of the server software. Servers SHOULD include this field." },
    { topic: 'schema', keyword: 'SCHEMA', quote: 'ResultMetaObject { "io.modelcontextprotocol/serverInfo"?: Implementation }; Implementation { name: string; version: string }', case: 'shape' },
  ],
}

export const UNSUPPORTED_VERSION: ModernCheckDef = {
  id: 'modern/unsupported-version',
  title: 'a request for an unsupported version gets UnsupportedProtocolVersionError',
  how: 'server/discover whose _meta (and, over HTTP, MCP-Protocol-Version header) asks for revision 1999-01-01: the answer is error -32022 whose data lists supported and requested versions, over HTTP with status 400',
  rules: [
    {
      topic: 'versioning#protocol-version-negotiation',
      keyword: 'MUST',
      quote:
        'If the server does not implement the requested version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it MUST respond with an UnsupportedProtocolVersionError listing the versions it does support',
    },
    { topic: 'schema', keyword: 'SCHEMA', quote: 'UnsupportedProtocolVersionError { error: { code: -32022; message: string; data: { supported: string[]; requested: string } } }', case: 'shape' },
    {
      topic: 'streamable-http#protocol-version-header',
      keyword: 'MUST',
      quote:
        'If the server does not implement the requested protocol version (whether the version is unknown to the server, or is a known version the server has chosen not to support), it MUST respond with 400 Bad Request and an UnsupportedProtocolVersionError listing its supported versions.',
      case: 'http-status',
    },
    REPLY,
  ],
}

export const NOT_YET_JUDGED: ModernCheckDef = {
  id: 'modern/not-yet-judged',
  title: 'the rest of the revision is not judged yet',
  how: 'a skip naming the revision and what of it the kit does not judge yet; never a verdict on the server',
  rules: [],
}

/** What of 2026-07-28 no check above judges yet, named in the modern/not-yet-judged skip. */
export const NOT_YET_JUDGED_AREAS = [
  'a missing Mcp-Method header, and Mcp-Param-* headers against the body (beyond invalid characters, headers left out and integers written as "<n>.0")',
  'subscriptions/listen over stdio, and what a stream carries after its acknowledgement',
]

/** In the order the docs list them. */
export const MODERN_CHECKS: readonly ModernCheckDef[] = [
  INITIALIZE_REFUSAL,
  DISCOVER,
  SERVER_INFO,
  UNSUPPORTED_VERSION,
  ...REQUEST_CHECKS,
  X_MCP_HEADER,
  NAME_HEADER,
  PARAM_HEADERS,
  PARAM_NUMERIC,
  STANDARD_ERRORS,
  CAPABILITY_DECLARED,
  TOOL_LIST,
  RESOURCE_READ,
  PROMPT_CONTENT,
  PAGES,
  TOOL_CALL,
  META_KEYS,
  RESULT_SERVER_INFO,
  MISSING_CAPABILITY,
  EARLIER_TRAFFIC,
  ...ENVELOPE_CHECKS,
  STATELESS,
  UNASKED_NOTIFICATIONS,
  MODERN_POSTS,
  ...MODERN_SSE_CHECKS,
  ...MODERN_STDIO_CHECKS,
  ...MODERN_AUTH_CHECKS,
  NOT_YET_JUDGED,
]
