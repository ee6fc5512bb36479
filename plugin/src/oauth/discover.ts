import { MetadataError, quote, validateResourceMetadata, validateServerMetadata, type ResourceMetadata, type ServerMetadata } from './metadata.ts'
import { resourceMetadataUrls, serverMetadataUrls } from './urls.ts'

/** What discovery learned about the server being called and the authorization server it trusts. */
export interface Discovery {
  /** The `resource` parameter (RFC 8707) of every authorization and token request. */
  resource: string
  resourceMetadata: ResourceMetadata
  server: ServerMetadata
}

/**
 * Discovery of the MCP server's authorization (MCP 2025-11-25 §basic/authorization, "Authorization
 * Server Discovery"): its protected resource metadata, then the first listed authorization
 * server's metadata, each from the URLs urls.ts lists, in order. `fetchFn` carries the bounds
 * (time and bytes: see auth.ts's fetchUnder and response-limits.ts); this module only asks.
 *
 * A URL that answers 4xx is skipped for the next (the server does not serve that form); any other
 * failure (a 5xx, a network error, a document that fails validation) ends discovery with its
 * reason: trying further URLs would only hide it.
 */
export async function discover(fetchFn: typeof fetch, serverUrl: URL, fromChallenge?: URL): Promise<Discovery> {
  const resourceMetadata = await firstDocument(fetchFn, resourceMetadataUrls(serverUrl, fromChallenge), 'protected resource metadata', (doc, where) =>
    validateResourceMetadata(doc, serverUrl, where),
  )
  // The first listed server: "The responsibility for selecting which authorization server to use lies with the MCP client".
  const issuer = resourceMetadata.authorizationServers[0]!
  const server = await firstDocument(fetchFn, serverMetadataUrls(new URL(issuer)), `authorization server metadata of ${issuer}`, (doc, where) =>
    validateServerMetadata(doc, issuer, where),
  )
  return { resource: resourceMetadata.resource, resourceMetadata, server }
}

async function firstDocument<T>(fetchFn: typeof fetch, urls: URL[], what: string, validate: (doc: unknown, where: URL) => T): Promise<T> {
  const statuses: string[] = []
  for (const url of urls) {
    const answer = await fetchFn(url, { headers: { accept: 'application/json' } })
    if (answer.status >= 400 && answer.status < 500) {
      await answer.body?.cancel().catch(() => {})
      statuses.push(`${url.href}: HTTP ${answer.status}`)
      continue
    }
    if (!answer.ok) {
      await answer.body?.cancel().catch(() => {})
      throw new MetadataError(`${what}: ${url.href} answered HTTP ${answer.status}`)
    }
    return validate(await jsonOf(answer, url), url)
  }
  throw new MetadataError(`no ${what} found (${statuses.join('; ')})`)
}

/** The answer's JSON, or one line saying it was not JSON. */
export async function jsonOf(answer: Response, url: URL): Promise<unknown> {
  const text = await answer.text()
  try {
    return JSON.parse(text)
  } catch {
    throw new MetadataError(`${url.href} answered ${quote(text.slice(0, 100))}, which is not JSON`)
  }
}
