/**
 * Where the metadata of an MCP server's authorization lives, and the server's name as a resource:
 * pure URL building (no I/O), so every rule below is tested without a socket.
 */

/**
 * The canonical URI of the MCP server (RFC 8707 §2, MCP 2025-11-25 §basic/authorization "Canonical
 * Server URI"): no fragment, lowercase scheme and host (the URL parser's own), and no trailing
 * slash on a bare origin, as "implementations SHOULD consistently use the form without the
 * trailing slash". The query is kept: it can name the resource.
 */
export function canonicalResource(serverUrl: URL): string {
  const url = new URL(serverUrl.href)
  url.hash = ''
  const href = url.href
  return url.pathname === '/' && url.search === '' ? href.slice(0, -1) : href
}

/**
 * The protected resource metadata (RFC 9728) URLs to try, in order: "use the resource metadata
 * URL from the parsed `WWW-Authenticate` headers when present; otherwise, they MUST fall back to
 * constructing and requesting the well-known URIs in the order listed above" (MCP 2025-11-25
 * §basic/authorization): the endpoint's path inserted after the well-known prefix, then the root.
 */
export function resourceMetadataUrls(serverUrl: URL, fromChallenge?: URL): URL[] {
  if (fromChallenge) return [fromChallenge]
  const path = serverUrl.pathname.replace(/\/+$/, '')
  const root = new URL('/.well-known/oauth-protected-resource', serverUrl.origin)
  // "Not applicable if the MCP server is at the root": the path-inserted URL would be the root one.
  return path ? [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin), root] : [root]
}

/**
 * The authorization server metadata URLs to try for `issuer`, in the priority order of MCP
 * 2025-11-25 §basic/authorization "Authorization Server Metadata Discovery" (RFC 8414 §3.1 path
 * insertion, then OpenID Connect Discovery 1.0 with path insertion and with path appending; an
 * issuer without a path has one of each kind).
 */
export function serverMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/+$/, '')
  const at = (suffix: string) => new URL(suffix, issuer.origin)
  if (!path) return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')]
  return [at(`/.well-known/oauth-authorization-server${path}`), at(`/.well-known/openid-configuration${path}`), at(`${path}/.well-known/openid-configuration`)]
}

/**
 * Whether the protected resource metadata's `resource` names the server being called: the same
 * origin, and a path equal to the endpoint's or one of its parent paths (at a segment boundary), so
 * metadata served at the root for the whole origin is accepted and another server's is not.
 */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  let declared: URL
  try {
    declared = new URL(resource)
  } catch {
    return false
  }
  if (declared.origin !== serverUrl.origin || declared.hash || declared.search) return false
  const base = declared.pathname.replace(/\/+$/, '')
  const path = serverUrl.pathname.replace(/\/+$/, '')
  return path === base || path.startsWith(`${base}/`)
}
