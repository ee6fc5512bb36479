import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { serveHttp, type InProcessServer, type ServeOptions } from './http-server.ts'

/**
 * A scripted authorization server in front of a real Streamable HTTP MCP endpoint, on one
 * 127.0.0.1 port: RFC 9728 protected-resource metadata, RFC 8414 server metadata and a token
 * endpoint for the client-credentials grant (client_secret_basic or private_key_jwt). It exists
 * because no published server lets a test revoke tokens or refuse every token on cue.
 */
export interface OAuthOptions {
  clientId: string
  /** For client_secret_basic. */
  clientSecret?: string
  /** For private_key_jwt: the key the client's assertions must verify against. */
  publicKeyPem?: string
  /** Every bearer token is refused, however fresh (a misconfigured resource server). */
  refuseAllTokens?: boolean
}

export interface TokenRequest {
  grantType: string
  /** The scope asked for, when one was. */
  scope?: string
  clientAuth: 'basic' | 'jwt' | 'none'
  /** Whether the client authenticated as the registered client. */
  accepted: boolean
}

export interface OAuthServer extends InProcessServer {
  issuer: string
  tokenRequests: TokenRequest[]
  /** Every Authorization header the MCP endpoint received. */
  authorizations: string[]
  issued: string[]
  /** Every token issued so far stops working, as when an administrator revokes them. */
  revokeAll(): void
}

type Serve<S extends InProcessServer> = (factory: () => McpServer | Server, options: ServeOptions) => Promise<S>

export async function serveOAuth<S extends InProcessServer = InProcessServer>(
  factory: () => McpServer | Server,
  options: OAuthOptions,
  serve: Serve<S> = serveHttp as unknown as Serve<S>,
): Promise<OAuthServer & S> {
  const live = new Set<string>()
  const state = { tokenRequests: [] as TokenRequest[], authorizations: [] as string[], issued: [] as string[] }
  const publicKey = options.publicKeyPem ? createPublicKey(options.publicKeyPem) : undefined
  let origin = ''
  let resource = ''
  const guard = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = new URL(req.url ?? '/', origin).pathname
    if (path.startsWith('/.well-known/oauth-protected-resource')) {
      return json(res, 200, { resource, authorization_servers: [origin] })
    }
    if (path === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS256'],
      })
    }
    if (path === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readText(req))
      const scope = form.get('scope')
      const request = { ...authenticate(req, form, options, publicKey, `${origin}/token`, origin), ...(scope ? { scope } : {}) }
      state.tokenRequests.push(request)
      if (!request.accepted) return json(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' })
      if (form.get('grant_type') !== 'client_credentials') return json(res, 400, { error: 'unsupported_grant_type' })
      const token = `at-${randomBytes(12).toString('hex')}`
      live.add(token)
      state.issued.push(token)
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 })
    }
    if (path.startsWith('/.well-known/')) return json(res, 404, { error: 'not_found' })
    // Everything else is the MCP server's, and needs a live token.
    const header = req.headers.authorization ?? ''
    state.authorizations.push(header)
    const token = /^Bearer (.+)$/.exec(header)?.[1]
    if (options.refuseAllTokens || !token || !live.has(token)) {
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource${new URL(resource).pathname}"`, 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: 'invalid_token' }))
      return true
    }
    return false
  }
  const server = await serve(factory, { guard })
  origin = new URL(server.url).origin
  resource = server.url
  return Object.assign(server, { issuer: origin, ...state, revokeAll: () => live.clear() })
}

function authenticate(req: IncomingMessage, form: URLSearchParams, options: OAuthOptions, publicKey: KeyObject | undefined, tokenUrl: string, issuer: string): TokenRequest {
  const grantType = form.get('grant_type') ?? ''
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
    return { grantType, clientAuth: 'basic', accepted: id === options.clientId && secret === options.clientSecret }
  }
  const assertion = form.get('client_assertion')
  if (assertion && form.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
    return { grantType, clientAuth: 'jwt', accepted: !!publicKey && verifyAssertion(assertion, publicKey, options.clientId, [tokenUrl, issuer, `${issuer}/`]) }
  }
  return { grantType, clientAuth: 'none', accepted: false }
}

/** RFC 7523 §3: signed by the client's key, issued by and about the client, for this server, not expired. */
function verifyAssertion(jwt: string, key: KeyObject, clientId: string, audiences: string[]): boolean {
  const [head, body, signature] = jwt.split('.')
  if (!head || !body || !signature) return false
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string }
  const signed = Buffer.from(`${head}.${body}`)
  const bytes = Buffer.from(signature, 'base64url')
  // RS256, or ES256 (whose JWS signature is the raw r||s pair, not DER).
  const valid =
    header.alg === 'RS256' ? verify('RSA-SHA256', signed, key, bytes) : header.alg === 'ES256' ? verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, bytes) : false
  if (!valid) return false
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as { iss?: string; sub?: string; aud?: string | string[]; exp?: number }
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  return claims.iss === clientId && claims.sub === clientId && aud.some((a) => audiences.includes(a ?? '')) && (claims.exp ?? 0) * 1000 > Date.now()
}

function json(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  return true
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString()
}
