import { describe, expect, it } from 'vitest'
import { chooseClient, tokenAuthMethod } from '../../src/oauth/client-identity.ts'
import type { ServerMetadata } from '../../src/oauth/metadata.ts'

const server = (extra: Partial<ServerMetadata> = {}): ServerMetadata => ({
  issuer: 'https://auth.example',
  authorizationEndpoint: 'https://auth.example/authorize',
  tokenEndpoint: 'https://auth.example/token',
  clientIdMetadataDocumentSupported: false,
  issParameterSupported: false,
  ...extra,
})
const doc = 'https://bridge.example/client.json'

describe('client identification in the spec order', () => {
  it('pre-registered, then a metadata document where supported, then a stored registration, then registering', () => {
    const all = server({ clientIdMetadataDocumentSupported: true, registrationEndpoint: 'https://auth.example/register' })
    expect(chooseClient(all, { configured: { clientId: 'pre' }, metadataUrl: doc, registered: { clientId: 'reg' } })).toEqual({ kind: 'preregistered', client: { clientId: 'pre' } })
    expect(chooseClient(all, { metadataUrl: doc, registered: { clientId: 'reg' } })).toEqual({ kind: 'metadata-document', client: { clientId: doc } })
    expect(chooseClient(server({ registrationEndpoint: 'https://auth.example/register' }), { metadataUrl: doc, registered: { clientId: 'reg' } })).toEqual({ kind: 'registered', client: { clientId: 'reg' } })
    expect(chooseClient(server({ registrationEndpoint: 'https://auth.example/register' }), { metadataUrl: doc })).toEqual({ kind: 'register', endpoint: 'https://auth.example/register' })
    expect(chooseClient(server(), {})).toMatchObject({ kind: 'none', reason: expect.stringContaining('set auth.clientId') })
  })

  it('authenticates a public client by id alone, a confidential one by Basic unless only the form post is offered', () => {
    expect(tokenAuthMethod({ clientId: 'p' }, server())).toBe('none')
    expect(tokenAuthMethod({ clientId: 'c', clientSecret: 's' }, server())).toBe('client_secret_basic')
    expect(tokenAuthMethod({ clientId: 'c', clientSecret: 's' }, server({ tokenEndpointAuthMethods: ['client_secret_post'] }))).toBe('client_secret_post')
  })
})
