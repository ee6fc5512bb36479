import { describe, expect, it } from 'vitest'
import { discover } from '../../src/oauth/discover.ts'
import { serveRoutes } from '../support/route-server.ts'

const asMetadata = (issuer: string, extra: Record<string, unknown> = {}) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  code_challenge_methods_supported: ['S256'],
  ...extra,
})

describe('authorization discovery over real sockets', () => {
  it('follows the well-known fallbacks in order: path-inserted, root; then RFC 8414, then OpenID discovery', async () => {
    const { origin, hits } = await serveRoutes((o) => ({
      '/.well-known/oauth-protected-resource': { body: { resource: `${o}/mcp`, authorization_servers: [`${o}/tenant`], scopes_supported: ['a', 'b'] } },
      '/tenant/.well-known/openid-configuration': { body: asMetadata(`${o}/tenant`) },
    }))
    const found = await discover(fetch, new URL(`${origin}/mcp`))
    expect(found.resource).toBe(`${origin}/mcp`)
    expect(found.resourceMetadata.scopesSupported).toEqual(['a', 'b'])
    expect(found.server.tokenEndpoint).toBe(`${origin}/tenant/token`)
    expect(hits).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server/tenant',
      '/.well-known/openid-configuration/tenant',
      '/tenant/.well-known/openid-configuration',
    ])
  })

  it('reads the metadata the challenge names, and no well-known URI', async () => {
    const { origin, hits } = await serveRoutes((o) => ({
      '/meta': { body: { resource: `${o}/mcp`, authorization_servers: [o] } },
      '/.well-known/oauth-protected-resource/mcp': { body: { resource: 'https://elsewhere.example/mcp', authorization_servers: [o] } },
      '/.well-known/oauth-authorization-server': { body: asMetadata(o) },
    }))
    await discover(fetch, new URL(`${origin}/mcp`), new URL(`${origin}/meta`))
    expect(hits).toEqual(['/meta', '/.well-known/oauth-authorization-server'])
  })

  it('refuses metadata for another resource, naming both', async () => {
    const { origin } = await serveRoutes((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { body: { resource: 'https://elsewhere.example/mcp', authorization_servers: [o] } },
    }))
    await expect(discover(fetch, new URL(`${origin}/mcp`))).rejects.toThrow(/is for resource "https:\/\/elsewhere.example\/mcp", not http:\/\/127.0.0.1:\d+\/mcp: refusing/)
  })

  it('refuses authorization server metadata of another issuer, and one without S256', async () => {
    const wrongIssuer = await serveRoutes((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { body: { resource: `${o}/mcp`, authorization_servers: [o] } },
      '/.well-known/oauth-authorization-server': { body: asMetadata('https://honest.example') },
    }))
    await expect(discover(fetch, new URL(`${wrongIssuer.origin}/mcp`))).rejects.toThrow(/names issuer "https:\/\/honest.example", not "http:\/\/127.0.0.1:\d+"/)
    const noPkce = await serveRoutes((o) => ({
      '/.well-known/oauth-protected-resource/mcp': { body: { resource: `${o}/mcp`, authorization_servers: [o] } },
      '/.well-known/oauth-authorization-server': { body: asMetadata(o, { code_challenge_methods_supported: ['plain'] }) },
    }))
    await expect(discover(fetch, new URL(`${noPkce.origin}/mcp`))).rejects.toThrow(/does not list S256 in code_challenge_methods_supported/)
  })

  it('says which URLs it tried when none serves metadata, and stops at a server error', async () => {
    const { origin } = await serveRoutes(() => ({}))
    await expect(discover(fetch, new URL(`${origin}/mcp`))).rejects.toThrow(/no protected resource metadata found \(.*oauth-protected-resource\/mcp: HTTP 404; .*oauth-protected-resource: HTTP 404\)/)
    const failing = await serveRoutes(() => ({ '/.well-known/oauth-protected-resource/mcp': { status: 503, body: {} } }))
    await expect(discover(fetch, new URL(`${failing.origin}/mcp`))).rejects.toThrow(/answered HTTP 503/)
  })
})
