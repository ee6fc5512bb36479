import { describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/config.ts'

const http = (auth: Record<string, unknown>) => ({ transport: 'streamable-http', serverName: 'hosted', url: 'https://mcp.example/mcp', auth })

describe('auth.type authorization_code in the config', () => {
  it('needs no other field', () => {
    expect(parseConfig(http({ type: 'authorization_code' }))).toMatchObject({ auth: { type: 'authorization_code' } })
  })

  it('takes a pre-registered client, a metadata document URL, an issuer and a scope', () => {
    const auth = { type: 'authorization_code', clientId: 'bridge', clientMetadataUrl: 'https://example.com/bridge.json', issuer: 'https://auth.example', scope: 'read' }
    expect(parseConfig(http(auth))).toMatchObject({ auth })
  })

  it('refuses a metadata document URL that is not https with a path, naming the field', () => {
    expect(() => parseConfig(http({ type: 'authorization_code', clientMetadataUrl: 'http://example.com/bridge.json' }))).toThrow(/auth\.clientMetadataUrl.*must be an https:\/\/ URL with a path/)
    expect(() => parseConfig(http({ type: 'authorization_code', clientMetadataUrl: 'https://example.com/' }))).toThrow(/auth\.clientMetadataUrl/)
  })

  it('refuses a client secret without the client it belongs to, and fields of other types', () => {
    process.env.MCP_TEST_CODE_SECRET = 'x'
    try {
      expect(() => parseConfig(http({ type: 'authorization_code', clientSecretEnv: 'MCP_TEST_CODE_SECRET' }))).toThrow(/auth\.clientSecretEnv.*needs auth\.clientId/)
    } finally {
      delete process.env.MCP_TEST_CODE_SECRET
    }
    expect(() => parseConfig(http({ type: 'authorization_code', tokenEnv: 'X' }))).toThrow(/auth\.tokenEnv.*does not apply to auth\.type "authorization_code"/)
  })
})
