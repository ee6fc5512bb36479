import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { authorizingFetch } from '../../src/auth-fetch.ts'
import { TokenRenewal, type Challenge } from '../../src/auth-renewal.ts'

describe('a 403 insufficient_scope over a real socket', () => {
  it('reaches the grant as a step-up for the challenged scope, and the request goes again with the new token', async () => {
    const seen: string[] = []
    const server = createServer((request, response) => {
      const auth = request.headers.authorization ?? ''
      seen.push(auth)
      if (request.url === '/admin' && auth !== 'Bearer t2') {
        response.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="tools admin", resource_metadata="http://127.0.0.1/meta"' }).end()
        return
      }
      response.writeHead(200).end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    let token = 't1'
    const challenges: Challenge[] = []
    const renewal = new TokenRenewal({
      current: () => token,
      grant: async (challenge) => {
        challenges.push(challenge)
        token = 't2'
      },
      timeoutMs: 10_000,
      lifetime: new AbortController().signal,
    })
    const { fetch: authorized } = authorizingFetch(fetch, renewal)
    expect((await authorized(`${origin}/`)).status).toBe(200)
    expect((await authorized(`${origin}/admin`)).status).toBe(200)
    expect(challenges).toEqual([{ scope: 'tools admin', insufficientScope: true, resourceMetadataUrl: new URL('http://127.0.0.1/meta') }])
    expect(seen).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t2'])
  })
})
