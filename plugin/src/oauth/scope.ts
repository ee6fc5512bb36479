/**
 * The scope to ask for (pure). MCP 2025-11-25 §basic/authorization "Scope Selection Strategy":
 * "1. Use `scope` parameter from the initial `WWW-Authenticate` header in the 401 response, if
 * provided 2. If `scope` is not available, use all scopes defined in `scopes_supported` from the
 * Protected Resource Metadata document, omitting the `scope` parameter if `scopes_supported` is
 * undefined." A scope the operator configured wins over both: it is their least privilege.
 * Undefined: no `scope` parameter at all.
 */
export function selectScope(configured: string | undefined, challenged: string | undefined, scopesSupported: string[] | undefined): string | undefined {
  if (configured) return configured
  if (challenged) return challenged
  return scopesSupported?.length ? scopesSupported.join(' ') : undefined
}

/** Whether every scope of `wanted` is among `granted` (space-separated lists, RFC 6749 §3.3); no wish is always covered. */
export function scopeCovers(granted: string | undefined, wanted: string | undefined): boolean {
  if (!wanted) return true
  const have = new Set((granted ?? '').split(' ').filter(Boolean))
  return wanted.split(' ').filter(Boolean).every((scope) => have.has(scope))
}

/**
 * `scope` with `offline_access` added when the authorization server lists it: clients that want
 * refresh tokens "MAY add `offline_access` to the `scope` parameter of the authorization and token
 * requests when the Authorization Server metadata contains it in `scopes_supported`" (MCP
 * 2026-07-28 §basic/authorization "Refresh Tokens"); a bridge that outlives one sign-in wants them.
 */
export function withOfflineAccess(scope: string | undefined, serverScopes: string[] | undefined): string | undefined {
  if (!serverScopes?.includes('offline_access')) return scope
  const scopes = (scope ?? '').split(' ').filter(Boolean)
  return scopes.includes('offline_access') ? scope : [...scopes, 'offline_access'].join(' ')
}
