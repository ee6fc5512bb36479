/**
 * Ways the fixture's resource server can break the MCP authorization sentences (`http.oauth.faults`),
 * one sentence each, so server mode's authorization checks can be seen to fail for the right reason.
 */
export const OAUTH_FAULTS = [
  /** A 401 without any WWW-Authenticate header. */
  'no-challenge',
  /** The Bearer challenge without its resource_metadata parameter. */
  'no-resource-metadata',
  /** The protected-resource metadata only at /prm (which the challenge names), at no well-known URI. */
  'no-well-known',
  /** The protected-resource metadata without authorization_servers. */
  'no-authorization-servers',
  /** Any bearer token is taken for a good one. */
  'accept-any-token',
  /** 403 where a 401 is due (no token, a bad token). */
  'forbidden',
  /** No authorization server metadata at /.well-known/oauth-authorization-server. */
  'no-server-metadata',
  /** The authorization server metadata only at the path-inserted URI (…/oauth-authorization-server/mcp). */
  'path-server-metadata',
  /** No token endpoint (with no-server-metadata: neither metadata nor the default endpoints). */
  'no-token-endpoint',
] as const

export type OAuthFault = (typeof OAUTH_FAULTS)[number]

/** Where the metadata is served under `no-well-known`. */
export const CUSTOM_RESOURCE_METADATA = '/prm'
