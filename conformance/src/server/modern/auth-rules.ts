/**
 * Pure: the authorization checks as 2026-07-28 states them (basic/authorization/index). The probe
 * and the verdicts are the legacy ones (../probe/auth.ts, ../evaluate/auth.ts); only the sentences differ.
 */
import { AUTH_APPLIES } from '../registry/auth-applies.ts'
import type { ModernCheckDef } from './types.ts'

const STATUS_CODES = 'Servers MUST return appropriate HTTP status codes for authorization errors: … 401 Unauthorized: Authorization required or token invalid'

export const MODERN_NO_CREDENTIALS: ModernCheckDef = {
  id: 'modern/auth-no-credentials',
  title: 'a request without credentials gets 401 Unauthorized',
  how: `POSTs initialize without credentials: a Bearer challenge (WWW-Authenticate) with any status but 401 breaks the sentence; ${AUTH_APPLIES}`,
  rules: [{ topic: 'authorization#error-handling', keyword: 'MUST', quote: STATUS_CODES }],
}

export const MODERN_INVALID_TOKEN: ModernCheckDef = {
  id: 'modern/auth-invalid-token',
  title: 'a bearer token the server never issued gets 401 with a Bearer challenge',
  how: `POSTs initialize with a random bearer token no server issued: any status but 401 breaks the main sentence; a 401 without a \`WWW-Authenticate: Bearer\` challenge breaks OAuth 2.1 §5.3.1 (challenge); ${AUTH_APPLIES}`,
  rules: [
    { topic: 'authorization#token-handling', keyword: 'MUST', quote: `Invalid or expired tokens MUST receive a HTTP 401 response. … ${STATUS_CODES}` },
    { topic: 'authorization#token-handling', keyword: 'MUST', quote: 'If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements.', case: 'challenge' },
  ],
}

export const MODERN_RESOURCE_METADATA: ModernCheckDef = {
  id: 'modern/auth-protected-resource-metadata',
  title: 'the Protected Resource Metadata is served',
  how: `GETs the document the challenge's \`resource_metadata\` names, else the well-known URIs (path-inserted, then root): no JSON object at any of them breaks the sentence; ${AUTH_APPLIES}`,
  rules: [{ topic: 'authorization#overview', keyword: 'MUST', quote: 'MCP servers MUST implement OAuth 2.0 Protected Resource Metadata (RFC9728).' }],
}

export const MODERN_SCOPE_HINT: ModernCheckDef = {
  id: 'modern/auth-scope-hint',
  title: 'the 401 challenge names the scopes the resource needs',
  how: `the \`WWW-Authenticate\` challenge of the 401 to a request without credentials carries a \`scope\` parameter; ${AUTH_APPLIES}`,
  rules: [
    {
      topic: 'authorization#scope-selection-strategy',
      keyword: 'SHOULD',
      quote: 'MCP servers SHOULD include a scope parameter in the WWW-Authenticate header as defined in RFC 6750 Section 3 to indicate the scopes required for accessing the resource.',
    },
  ],
}

export const MODERN_OFFLINE_ACCESS: ModernCheckDef = {
  id: 'modern/auth-offline-access',
  title: 'offline_access is not asked for by the resource',
  how: `the \`scope\` of the 401 challenge and the \`scopes_supported\` of the Protected Resource Metadata do not list offline_access; ${AUTH_APPLIES}`,
  rules: [
    {
      topic: 'authorization#refresh-tokens',
      keyword: 'SHOULD NOT',
      quote: 'MCP Servers (Protected Resources) SHOULD NOT include offline_access in WWW-Authenticate scope or Protected Resource Metadata scopes_supported, as refresh tokens are not a resource requirement.',
    },
  ],
}

export const MODERN_AUTH_CHECKS: readonly ModernCheckDef[] = [MODERN_NO_CREDENTIALS, MODERN_INVALID_TOKEN, MODERN_RESOURCE_METADATA, MODERN_SCOPE_HINT, MODERN_OFFLINE_ACCESS]
