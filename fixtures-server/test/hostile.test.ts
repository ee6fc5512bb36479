import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, it } from 'vitest'
import { startHttpFixture } from '../src/index.ts'
import { open, tempDir } from './support/fixtures.ts'

const client = () => new Client({ name: 'hostile-test', version: '1.0.0' })
const connect = async (url: string, headers: Record<string, string> = {}) => {
  const c = client()
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
  return c
}

describe('hostile servers', () => {
  it('a 401 that echoes the credential it was sent', async () => {
    const fx = await startHttpFixture({ tools: [{ name: 'echo' }], http: { auth: { header: 'authorization', value: 'Bearer right', echo: true } } })
    try {
      await expect(connect(fx.url, { authorization: 'Bearer wrong-one' })).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Bearer wrong-one') })
    } finally {
      await fx.close()
    }
  })

  it('an error page that quotes every request header back, or a scripted body', async () => {
    const fx = await startHttpFixture({
      tools: [{ name: 'echo' }, { name: 'page' }],
      http: {
        faults: [
          { tool: 'echo', action: 'fail', status: 502, echoHeaders: true },
          { tool: 'page', action: 'fail', status: 500, body: '<h1>oops</h1>' },
        ],
      },
    })
    try {
      const c = await connect(fx.url, { 'x-api-key': 'k-123-secret' })
      await expect(c.callTool({ name: 'echo' })).rejects.toMatchObject({ code: 502, message: expect.stringMatching(/Scripted HTTP 502 \(request headers: .*x-api-key.*k-123-secret/) })
      await expect(c.callTool({ name: 'page' })).rejects.toMatchObject({ code: 500, message: expect.stringContaining('<h1>oops</h1>') })
      await c.close()
    } finally {
      await fx.close()
    }
  })

  it.each(['json', 'sse'] as const)('a flood as %s is a valid, huge answer, produced as it is read', async (as) => {
    const fx = await startHttpFixture({ tools: [{ name: 'flood' }], http: { faults: [{ tool: 'flood', action: 'flood', bytes: 3_000_000, as }] } })
    try {
      const c = await connect(fx.url)
      const result = await c.callTool({ name: 'flood' })
      expect((result.content as Array<{ text: string }>)[0]!.text).toHaveLength(3_000_000)
      await c.close()
    } finally {
      await fx.close()
    }
  })

  it('stdio: envDump writes the environment the child was given, values included', async () => {
    const file = join(tempDir(), 'env.json')
    const fx = await open('stdio', { tools: [{ name: 'echo' }], envDump: file }, { env: { CANARY_SEEN: 'yes-it-was' } })
    try {
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ CANARY_SEEN: 'yes-it-was' })
    } finally {
      await fx.close()
    }
  })
})
