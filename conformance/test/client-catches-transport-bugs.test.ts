import { describe, it } from 'vitest'
import { expectCaught, type KnownBug } from './support/caught-bug.ts'

// OAuth and legacy SSE bugs (naive-transport.ts): each must flip a named check of an oauth-* or
// sse-* scenario from pass (the sound naive client) to fail (the same client with the bug).
const bugs: KnownBug[] = [
  // A server that refuses every token: one fresh token and one more try, never a loop.
  { fault: 'unauthorizedLoop', scenario: 'oauth-401-forever-stops', check: 'expect/http-status/401' },
  { fault: 'unauthorizedLoop', scenario: 'oauth-401-forever-stops', check: 'expect/token-requests/all' },
  // The same over legacy SSE, where the SDK's own client re-authorises on every 401 unless bounded.
  { fault: 'unauthorizedLoop', scenario: 'sse-oauth-401-forever-stops', check: 'expect/token-requests/all' },
  // An expired token must be replaced, not fetched again and dropped.
  { fault: 'neverRenewToken', scenario: 'oauth-expired-token-regranted', check: 'expect/call-2' },
  // A revoked refresh token: presented again after its refusal, and the call lost with it.
  { fault: 'refreshOnly', scenario: 'oauth-revoked-refresh-token-regrants', check: 'expect/token-requests/refresh_token/invalid_grant' },
  { fault: 'refreshOnly', scenario: 'oauth-revoked-refresh-token-regrants', check: 'expect/call-2' },
  // The token request names the resource it is for (RFC 8707), as MCP requires.
  { fault: 'noResourceParam', scenario: 'oauth-client-credentials', check: 'expect/token-requests/client_credentials/issued' },
  // Client authentication by the method the metadata advertises, not by habit.
  { fault: 'ignoreAuthMethods', scenario: 'oauth-client-secret-post', check: 'expect/token-requests/all' },
  { fault: 'ignoreAuthMethods', scenario: 'oauth-client-secret-post', check: 'expect/call-1' },
  // A private_key_jwt assertion for the wrong audience is refused (RFC 7523 §3): no token, no tools.
  { fault: 'jwtAudienceResource', scenario: 'oauth-private-key-jwt', check: 'expect/call-1' },
  // Refused client credentials presented again and again.
  { fault: 'retryRefusedClient', scenario: 'oauth-invalid-client-stops', check: 'expect/token-requests/all' },
  // The token in the URL, where MCP forbids it (and where server logs keep it).
  { fault: 'tokenInQuery', scenario: 'oauth-bearer-token-from-env', check: 'expect/bearer/query' },
  { fault: 'tokenInQuery', scenario: 'oauth-client-credentials', check: 'expect/bearer/query' },
  { fault: 'tokenInQuery', scenario: 'sse-oauth-client-credentials', check: 'expect/bearer/query' },
  // A refused request's error quoting the token it carried, logged.
  { fault: 'tokenInErrors', scenario: 'oauth-secrets-never-logged', check: 'expect/logs' },
  // Legacy SSE asked for by name, spoken as Streamable HTTP: the POST the legacy server refuses.
  { fault: 'ignoreSseTransport', scenario: 'sse-legacy-transport', check: 'expect/http-status/405' },
  // No fallback: the legacy server's 405 ends the attempt and no tool is ever called.
  { fault: 'noSseFallback', scenario: 'sse-fallback-from-streamable-http', check: 'expect/call-1' },
  // A fallback nobody asked for: the legacy stream opened behind a misconfigured URL's real status.
  { fault: 'alwaysFallBack', scenario: 'sse-legacy-server-without-fallback-fails-clearly', check: 'expect/http-status/200' },
]

describe('the kit catches OAuth and legacy SSE client bugs', () => {
  it.each(bugs)('$fault is caught by $scenario / $check', (bug) => expectCaught(bug))
})
