import type { IncomingMessage, ServerResponse } from 'node:http'
import { OAuthServer as FixtureOAuth, type OAuthSpec } from '@mcp-bridge/fixtures-server'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { serveHttp, type InProcessServer, type ServeOptions } from './http-server.ts'

/**
 * A real MCP server (Streamable HTTP, or legacy SSE through `serve`) behind the conformance
 * fixture's authorization server (fixtures-server/src/oauth-server.ts: RFC 9728 and RFC 8414
 * metadata, the token endpoint, private_key_jwt verification, the 401 challenge), so the plugin's
 * tests and the kit's scenarios hold the bridge to one rule written in one place. This file only
 * adapts node's request to it and records what the tests assert on.
 */
export interface OAuthOptions {
  clientId: string
  /** For client_secret_basic. */
  clientSecret?: string
  /** For private_key_jwt: the key the client's assertions must verify against. */
  publicKeyPem?: string
  /** Every bearer token is refused, however fresh (a misconfigured resource server). */
  refuseAllTokens?: boolean
  /** The authorization-code grant: the fixture's authorization endpoint answers so (approve, or a broken variant). */
  authorize?: OAuthSpec['authorize']
  /** Dynamic client registration at /register. */
  registration?: boolean
  refreshTokens?: OAuthSpec['refreshTokens']
  scopes?: string[]
  requireResource?: boolean
}

export interface TokenRequest {
  grantType: string
  /** The scope asked for, when one was. */
  scope?: string
  clientAuth: 'basic' | 'post' | 'jwt' | 'none'
  /** Whether the client authenticated as the registered client. */
  accepted: boolean
}

export interface OAuthServer extends InProcessServer {
  issuer: string
  tokenRequests: TokenRequest[]
  /** Every Authorization header the MCP endpoint received. */
  authorizations: string[]
  issued: string[]
  /** Every authorization code and PKCE verifier presented at the token endpoint. */
  presented: string[]
  /** Every token issued so far stops working, as when an administrator revokes them. */
  revokeAll(): void
  /** Every access token issued so far has expired (the fixture answers 401 invalid_token to it). */
  expireAll(): void
  /** The registered client secret changes: the client's own no longer authenticates it. */
  rotateClientSecret(secret: string): void
}

type Serve<S extends InProcessServer> = (factory: () => McpServer | Server, options: ServeOptions) => Promise<S>

const CLIENT_AUTH: Record<string, TokenRequest['clientAuth']> = { client_secret_basic: 'basic', client_secret_post: 'post', private_key_jwt: 'jwt' }

export async function serveOAuth<S extends InProcessServer = InProcessServer>(
  factory: () => McpServer | Server,
  options: OAuthOptions,
  serve: Serve<S> = serveHttp as unknown as Serve<S>,
): Promise<OAuthServer & S> {
  const state = { tokenRequests: [] as TokenRequest[], authorizations: [] as string[], issued: [] as string[], presented: [] as string[] }
  const spec: OAuthSpec = {
    clientId: options.clientId,
    ...(options.clientSecret !== undefined ? { clientSecret: options.clientSecret } : {}),
    ...(options.publicKeyPem !== undefined ? { publicKey: options.publicKeyPem } : {}),
    staticTokens: [],
    refreshTokens: options.refreshTokens ?? 'none',
    refuseAllTokens: options.refuseAllTokens ?? false,
    requireResource: options.requireResource ?? false,
    registration: options.registration ?? false,
    ...(options.authorize ? { authorize: options.authorize } : {}),
    ...(options.scopes ? { scopes: options.scopes } : {}),
  }
  // Known once the server listens: the endpoint's path names its protected-resource metadata.
  const listening: { oauth?: FixtureOAuth; origin?: string } = {}
  const guard = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const oauth = listening.oauth!
    const request = await toRequest(req, listening.origin!)
    const path = new URL(request.url).pathname
    if (oauth.serves(path)) {
      const { response, token } = await oauth.handle(request)
      if (token) {
        state.tokenRequests.push({ grantType: token.grant, clientAuth: CLIENT_AUTH[token.clientAuth] ?? 'none', accepted: token.outcome !== 'invalid_client', ...(token.scope ? { scope: token.scope } : {}) })
      }
      return write(res, response)
    }
    if (path.startsWith('/.well-known/')) return write(res, Response.json({ error: 'not_found' }, { status: 404 }))
    // Everything else is the MCP server's, and needs a live token.
    state.authorizations.push(req.headers.authorization ?? '')
    const { refusal } = oauth.check(request)
    return refusal ? write(res, refusal) : false
  }
  const server = await serve(factory, { guard })
  const url = new URL(server.url)
  listening.origin = url.origin
  listening.oauth = new FixtureOAuth(spec, 1, 1, url.pathname, { issued: (token) => void state.issued.push(token), presented: (secret) => void state.presented.push(secret) })
  return Object.assign(server, { issuer: url.origin, ...state, revokeAll: () => listening.oauth!.revokeAll(), expireAll: () => listening.oauth!.expireAll(), rotateClientSecret: (secret: string) => void (spec.clientSecret = secret) })
}

/**
 * The node request as a web Request for the fixture. Only the token endpoint's body is read: the
 * MCP server behind the guard reads its own requests' bodies.
 */
async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const url = new URL(req.url ?? '/', origin)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) for (const item of [value ?? []].flat()) headers.append(name, item)
  if (req.method !== 'POST' || (url.pathname !== '/token' && url.pathname !== '/register')) return new Request(url, { method: req.method, headers })
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return new Request(url, { method: 'POST', headers, body: Buffer.concat(chunks).toString() })
}

async function write(res: ServerResponse, response: Response): Promise<true> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => (headers[name] = value))
  res.writeHead(response.status, headers).end(await response.text())
  return true
}
