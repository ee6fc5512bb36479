/**
 * The authorization checks (HTTP only, 2025-03-26 on): judged only for a server that asks for
 * authorization, i.e. answers a request without credentials with 401 or a Bearer challenge.
 */
import { AUTH_APPLIES } from './auth-applies.ts'
import { rule, type CheckDef } from './rules.ts'

const STATUS_CODES = 'Servers MUST return appropriate HTTP status codes for authorization errors: … 401 Unauthorized: Authorization required or token invalid'


export const NO_CREDENTIALS: CheckDef = {
  id: 'auth/no-credentials',
  title: 'a request without credentials gets 401 Unauthorized',
  scope: 'server',
  transport: 'http',
  how: `POSTs initialize without credentials: a Bearer challenge (WWW-Authenticate) with any status but 401 breaks the sentence; ${AUTH_APPLIES}`,
  rules: [
    rule('2025-03-26', 'authorization#code-grant', 'MUST', `When authorization is required and not yet proven by the client, servers MUST respond with HTTP 401 Unauthorized. … ${STATUS_CODES}`, undefined, '2025-03-26'),
    rule('2025-06-18', 'authorization#error-handling', 'MUST', STATUS_CODES),
  ],
}

export const INVALID_TOKEN: CheckDef = {
  id: 'auth/invalid-token',
  title: 'a bearer token the server never issued gets 401 with a Bearer challenge',
  scope: 'server',
  transport: 'http',
  how: `POSTs initialize with \`Authorization: Bearer\` and a random token no server issued: any status but 401 breaks the main sentence; a 401 without a \`WWW-Authenticate: Bearer\` challenge breaks the error response OAuth 2.1 §5.3.1 requires (“the resource server MUST include the HTTP WWW-Authenticate response header field”) (challenge); ${AUTH_APPLIES}`,
  rules: [
    rule('2025-03-26', 'authorization#token-handling', 'MUST', `Invalid or expired tokens MUST receive a HTTP 401 response. … ${STATUS_CODES}`),
    rule('2025-03-26', 'authorization#token-handling', 'MUST', 'If validation fails, servers MUST respond according to Section 5.3 error handling requirements.', 'challenge', '2025-03-26'),
    rule('2025-06-18', 'authorization#token-handling', 'MUST', 'If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements.', 'challenge'),
  ],
}

export const SERVER_METADATA: CheckDef = {
  id: 'auth/server-metadata',
  title: 'the authorization server metadata, or the default endpoints, are served',
  scope: 'server',
  transport: 'http',
  how: `GETs /.well-known/oauth-authorization-server at the authorization base URL (the endpoint's origin, its path discarded): a JSON object passes. Found only at the path-inserted URI breaks the location sentence (location). Found nowhere: the default endpoints must answer (GET /authorize, POST /token: anything but 404), else the fallback sentence is broken (fallback); ${AUTH_APPLIES}`,
  rules: [
    rule(
      '2025-03-26',
      'authorization#server-metadata-discovery',
      'MUST',
      'MCP servers SHOULD and MCP clients MUST implement OAuth 2.0 Authorization Server Metadata (RFC8414). … MCP server SHOULD follow the OAuth 2.0 Authorization Server Metadata protocol.',
      undefined,
      '2025-03-26',
    ),
    rule(
      '2025-03-26',
      'authorization#server-metadata-discovery',
      'MUST',
      'Servers that do not support Authorization Server Metadata MUST follow the default URI schema. … MCP servers that do not support the OAuth 2.0 Authorization Server Metadata protocol, MUST support fallback URLs.',
      'fallback',
      '2025-03-26',
    ),
    rule('2025-03-26', 'authorization#base-url', 'MUST', 'The metadata endpoint MUST be at https://api.example.com/.well-known/oauth-authorization-server', 'location', '2025-03-26'),
  ],
  note: 'The overview’s MUST binds clients; servers SHOULD implement the metadata, so a server that serves the default endpoints instead is warned, one step below the quote’s strongest keyword.',
}

export const METADATA_LOCATION: CheckDef = {
  id: 'auth/resource-metadata-location',
  title: 'the Protected Resource Metadata can be located',
  scope: 'server',
  transport: 'http',
  how: `reads the 401 to a request without credentials: 2025-06-18 asks for a \`WWW-Authenticate\` challenge with \`resource_metadata\`; 2025-11-25 is satisfied by that or by a document at a well-known URI (RFC 9728 §3.1: path-inserted, then root); ${AUTH_APPLIES}`,
  rules: [
    rule(
      '2025-06-18',
      'authorization#authorization-server-location',
      'MUST',
      'MCP servers MUST use the HTTP header WWW-Authenticate when returning a 401 Unauthorized to indicate the location of the resource server metadata URL as described in RFC9728 Section 5.1 "WWW-Authenticate Response".',
      undefined,
      '2025-06-18',
    ),
    rule(
      '2025-11-25',
      'authorization#discovery-requirements',
      'MUST',
      "MCP servers MUST implement one of the following discovery mechanisms to provide authorization server location information to MCP clients: … WWW-Authenticate Header: Include the resource metadata URL in the WWW-Authenticate HTTP header under resource_metadata when returning 401 Unauthorized responses, as described in RFC9728 Section 5.1. … Well-Known URI: Serve metadata at a well-known URI as specified in RFC9728. … At the path of the server's MCP endpoint: https://example.com/public/mcp could host metadata at https://example.com/.well-known/oauth-protected-resource/public/mcp … At the root: https://example.com/.well-known/oauth-protected-resource",
    ),
  ],
}

export const RESOURCE_METADATA: CheckDef = {
  id: 'auth/protected-resource-metadata',
  title: 'the Protected Resource Metadata names an authorization server',
  scope: 'server',
  transport: 'http',
  how: `GETs the document the challenge's \`resource_metadata\` names, else the well-known URIs (path-inserted, then root): no JSON object at any of them breaks the main sentence; one without a non-empty \`authorization_servers\` array of strings breaks the second (authorization-servers); ${AUTH_APPLIES}`,
  rules: [
    rule(
      '2025-06-18',
      'authorization#overview',
      'MUST',
      'MCP servers MUST implement OAuth 2.0 Protected Resource Metadata (RFC9728). … MCP servers MUST implement the OAuth 2.0 Protected Resource Metadata (RFC9728) specification to indicate the locations of authorization servers.',
    ),
    rule(
      '2025-06-18',
      'authorization#authorization-server-location',
      'MUST',
      'The Protected Resource Metadata document returned by the MCP server MUST include the authorization_servers field containing at least one authorization server.',
      'authorization-servers',
    ),
  ],
}

export const SCOPE_HINT: CheckDef = {
  id: 'auth/scope-hint',
  title: 'the 401 challenge names the scopes the resource needs',
  scope: 'server',
  transport: 'http',
  how: `the \`WWW-Authenticate\` challenge of the 401 to a request without credentials carries a \`scope\` parameter; ${AUTH_APPLIES}`,
  rules: [
    rule(
      '2025-11-25',
      'authorization#discovery-requirements',
      'SHOULD',
      'MCP servers SHOULD include a scope parameter in the WWW-Authenticate header as defined in RFC 6750 Section 3 to indicate the scopes required for accessing the resource.',
    ),
  ],
}

export const AUTH_CHECKS: readonly CheckDef[] = [NO_CREDENTIALS, INVALID_TOKEN, SERVER_METADATA, METADATA_LOCATION, RESOURCE_METADATA, SCOPE_HINT]
