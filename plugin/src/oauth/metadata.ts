import { resourceCovers } from './urls.ts'

/**
 * Validation of the two metadata documents discovery reads (pure: a document in, the fields the
 * flow needs out, or one line saying what is wrong and where). Everything here is untrusted text
 * from the network; callers quote only what these errors say.
 */

export class MetadataError extends Error {
  override name = 'MetadataError'
}

export interface ResourceMetadata {
  resource: string
  authorizationServers: string[]
  scopesSupported?: string[]
}

export interface ServerMetadata {
  issuer: string
  authorizationEndpoint: string
  tokenEndpoint: string
  registrationEndpoint?: string
  scopesSupported?: string[]
  tokenEndpointAuthMethods?: string[]
  clientIdMetadataDocumentSupported: boolean
  issParameterSupported: boolean
}

type Doc = Record<string, unknown>

/**
 * The protected resource metadata (RFC 9728 §2) of `serverUrl`, fetched from `where`. Its
 * `resource` must name this server (RFC 9728 §3.3: "If these values are not identical, the data
 * contained in the response MUST NOT be used"; accepted too: a parent path of the endpoint on its
 * origin, see resourceCovers), else the metadata is refused: a token for another resource is
 * never asked for.
 */
export function validateResourceMetadata(doc: unknown, serverUrl: URL, where: URL): ResourceMetadata {
  const place = `the protected resource metadata at ${where.href}`
  const body = objectOf(doc, place)
  const resource = stringField(body, 'resource', place)
  if (!resourceCovers(resource, serverUrl)) {
    throw new MetadataError(`${place} is for resource ${quote(resource)}, not ${serverUrl.href}: refusing to ask for a token for another resource (RFC 9728 §3.3)`)
  }
  const servers = body.authorization_servers
  if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === 'string' && isHttpUrl(s))) {
    throw new MetadataError(`${place} lists no authorization server: authorization_servers must be a non-empty array of http(s) URLs`)
  }
  const scopes = stringArray(body, 'scopes_supported', place)
  return { resource, authorizationServers: servers as string[], ...(scopes ? { scopesSupported: scopes } : {}) }
}

/**
 * Authorization server metadata (RFC 8414 §2, or OpenID Provider Metadata) for `issuer`, read
 * from `where`. "the `issuer` value in the document MUST be identical to the issuer identifier used
 * to construct the well-known URL. If they differ, the client MUST NOT use the metadata" (MCP
 * 2026-07-28 §authorization-server-discovery); and "If `code_challenge_methods_supported` is
 * absent, the authorization server does not support PKCE and MCP clients MUST refuse to proceed"
 * (MCP 2025-11-25 §basic/authorization "Authorization Code Protection"), as when S256 is not listed.
 */
export function validateServerMetadata(doc: unknown, issuer: string, where: URL): ServerMetadata {
  const place = `the authorization server metadata at ${where.href}`
  const body = objectOf(doc, place)
  const declared = stringField(body, 'issuer', place)
  if (declared !== issuer) throw new MetadataError(`${place} names issuer ${quote(declared)}, not ${quote(issuer)}: metadata of another issuer is never used (RFC 8414 §3.3)`)
  const methods = stringArray(body, 'code_challenge_methods_supported', place)
  if (!methods?.includes('S256')) {
    throw new MetadataError(`${place} does not list S256 in code_challenge_methods_supported: refusing to sign in without PKCE`)
  }
  const registration = optionalUrl(body, 'registration_endpoint', place)
  const scopes = stringArray(body, 'scopes_supported', place)
  const auth = stringArray(body, 'token_endpoint_auth_methods_supported', place)
  return {
    issuer: declared,
    authorizationEndpoint: urlField(body, 'authorization_endpoint', place),
    tokenEndpoint: urlField(body, 'token_endpoint', place),
    ...(registration ? { registrationEndpoint: registration } : {}),
    ...(scopes ? { scopesSupported: scopes } : {}),
    ...(auth ? { tokenEndpointAuthMethods: auth } : {}),
    clientIdMetadataDocumentSupported: body.client_id_metadata_document_supported === true,
    issParameterSupported: body.authorization_response_iss_parameter_supported === true,
  }
}

function objectOf(doc: unknown, place: string): Doc {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new MetadataError(`${place} is not a JSON object`)
  return doc as Doc
}

function stringField(body: Doc, field: string, place: string): string {
  const value = body[field]
  if (typeof value !== 'string' || value === '') throw new MetadataError(`${place} has no ${field} string`)
  return value
}

function urlField(body: Doc, field: string, place: string): string {
  const value = stringField(body, field, place)
  if (!isHttpUrl(value)) throw new MetadataError(`${place}: ${field} is not an http(s) URL`)
  return value
}

function optionalUrl(body: Doc, field: string, place: string): string | undefined {
  return body[field] === undefined ? undefined : urlField(body, field, place)
}

function stringArray(body: Doc, field: string, place: string): string[] | undefined {
  const value = body[field]
  if (value === undefined) return undefined
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new MetadataError(`${place}: ${field} is not an array of strings`)
  return value as string[]
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/** Untrusted text in an error: JSON-quoted and cut short. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)
}
