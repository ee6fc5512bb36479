import type { ServerMetadata } from './metadata.ts'

/** A client identity at one authorization server. */
export interface ClientIdentity {
  clientId: string
  /** A confidential client's secret; a public client (CIMD, native registration) has none. */
  clientSecret?: string
}

export type ClientChoice =
  | { kind: 'preregistered'; client: ClientIdentity }
  | { kind: 'metadata-document'; client: ClientIdentity }
  | { kind: 'registered'; client: ClientIdentity }
  | { kind: 'register'; endpoint: string }
  | { kind: 'none'; reason: string }

/**
 * How the bridge identifies itself to `server` (pure), in the order of MCP 2025-11-25
 * §basic/authorization "Client Registration Approaches": "1. Use pre-registered client information
 * for the server if the client has it available 2. Use Client ID Metadata Documents if the
 * Authorization Server indicates if the server supports it (via
 * `client_id_metadata_document_supported` ...) 3. Use Dynamic Client Registration as a fallback if
 * the Authorization Server supports it (via `registration_endpoint` ...)". A registration made
 * earlier with this same issuer (the credential store's, never another issuer's) is reused before
 * registering again.
 */
export function chooseClient(server: ServerMetadata, options: { configured?: ClientIdentity; metadataUrl?: string; registered?: ClientIdentity }): ClientChoice {
  if (options.configured) return { kind: 'preregistered', client: options.configured }
  if (options.metadataUrl && server.clientIdMetadataDocumentSupported) return { kind: 'metadata-document', client: { clientId: options.metadataUrl } }
  if (options.registered) return { kind: 'registered', client: options.registered }
  if (server.registrationEndpoint) return { kind: 'register', endpoint: server.registrationEndpoint }
  return {
    kind: 'none',
    reason: `${server.issuer} offers no way for the bridge to identify itself (no client_id_metadata_document_supported${options.metadataUrl ? '' : ' or no auth.clientMetadataUrl'}, no registration_endpoint): set auth.clientId to a client registered there`,
  }
}

/**
 * The token endpoint authentication method for `client` (RFC 8414 §2: absent
 * `token_endpoint_auth_methods_supported` means client_secret_basic): a public client sends only
 * its id (`none`); a confidential one Basic when allowed, else the form post.
 */
export function tokenAuthMethod(client: ClientIdentity, server: ServerMetadata): 'none' | 'client_secret_basic' | 'client_secret_post' {
  if (client.clientSecret === undefined) return 'none'
  const methods = server.tokenEndpointAuthMethods ?? ['client_secret_basic']
  return methods.includes('client_secret_basic') || !methods.includes('client_secret_post') ? 'client_secret_basic' : 'client_secret_post'
}
