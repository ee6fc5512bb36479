import { describe, expect, it } from 'vitest'
import { canonicalResource, resourceCovers, resourceMetadataUrls, serverMetadataUrls } from '../../src/oauth/urls.ts'

const hrefs = (urls: URL[]) => urls.map((u) => u.href)

describe('discovery URLs', () => {
  it('uses the challenge resource_metadata URL alone when there is one', () => {
    expect(hrefs(resourceMetadataUrls(new URL('https://a.example/public/mcp'), new URL('https://a.example/meta')))).toEqual(['https://a.example/meta'])
  })

  it('falls back to the path-inserted, then the root well-known URI', () => {
    expect(hrefs(resourceMetadataUrls(new URL('https://a.example/public/mcp')))).toEqual([
      'https://a.example/.well-known/oauth-protected-resource/public/mcp',
      'https://a.example/.well-known/oauth-protected-resource',
    ])
    expect(hrefs(resourceMetadataUrls(new URL('https://a.example/')))).toEqual(['https://a.example/.well-known/oauth-protected-resource'])
  })

  it('lists authorization server metadata URLs in the spec order, with and without an issuer path', () => {
    expect(hrefs(serverMetadataUrls(new URL('https://auth.example.com/tenant1')))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ])
    expect(hrefs(serverMetadataUrls(new URL('https://auth.example.com')))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ])
  })

  it('names the server canonically: lowercase host, no fragment, no trailing slash on an origin', () => {
    expect(canonicalResource(new URL('HTTPS://MCP.Example.com/'))).toBe('https://mcp.example.com')
    expect(canonicalResource(new URL('https://mcp.example.com/mcp#x'))).toBe('https://mcp.example.com/mcp')
  })

  it('accepts a resource that is the endpoint or a parent path on its origin, nothing else', () => {
    const server = new URL('https://a.example/public/mcp')
    expect(resourceCovers('https://a.example/public/mcp', server)).toBe(true)
    expect(resourceCovers('https://a.example', server)).toBe(true)
    expect(resourceCovers('https://a.example/public', server)).toBe(true)
    expect(resourceCovers('https://a.example/pub', server)).toBe(false)
    expect(resourceCovers('https://a.example/other/mcp', server)).toBe(false)
    expect(resourceCovers('https://b.example/public/mcp', server)).toBe(false)
    expect(resourceCovers('not a url', server)).toBe(false)
  })
})
