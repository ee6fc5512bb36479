import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { serveHttp } from './support/http-server.ts'
import { startHost } from './support/host.ts'
import { afterTest } from './support/cleanup.ts'
import { legacyFactory, startV2Http } from './support/v2-server.mjs'

/**
 * One configuration, whichever era the server speaks: the same config (only the server's
 * address differs) reaches a modern-only server on the v2 SDK (MCP 2026-07-28: it refuses
 * initialize) and a legacy one on the v1 SDK, over Streamable HTTP and over stdio, and offers the
 * same tools under the same names with the same results.
 */
const fixture = fileURLToPath(new URL('./support/v2-server.mjs', import.meta.url))

interface V2Http {
  url: string
  seen: Map<string, number>
  close(): Promise<void>
}

async function modernHttp(): Promise<V2Http> {
  return afterTest((await startV2Http({ legacy: 'reject' })) as V2Http, (server) => server.close())
}

const http = (url: string) => ({ transport: 'streamable-http', serverName: 'twin', url, connectTimeoutMs: 20_000 })
const stdio = (mode: 'reject' | 'legacy') => ({ transport: 'stdio', serverName: 'twin', command: process.execPath, args: [fixture, 'stdio', mode], connectTimeoutMs: 20_000 })

/** The echo tool as the host offers it, and what one call of it returns. */
async function offered(config: Record<string, unknown>) {
  const host = await startHost()
  await host.load(config)
  const names = host.tools.list().map((t) => t.name)
  const result = await host.tools.execute('mcp__twin__echo', { text: 'hi' })
  return { names: names.filter((n) => n === 'mcp__twin__echo'), result, host }
}

describe('the same configuration reaches both eras', () => {
  it('over Streamable HTTP: a modern-only v2 server and a legacy v1 server offer the same echo', async () => {
    const modern = await modernHttp()
    const legacy = await serveHttp(legacyFactory)
    const viaModern = await offered(http(modern.url))
    const viaLegacy = await offered(http(legacy.url))
    expect(viaModern.names).toEqual(['mcp__twin__echo'])
    expect(viaModern.names).toEqual(viaLegacy.names)
    expect(viaModern.result).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] })
    expect(viaModern.result).toEqual(viaLegacy.result)
    // The modern server answered the server/discover probe and was spoken to in its era at once.
    expect(modern.seen.get('initialize') ?? 0).toBe(0)
    expect(modern.seen.get('server/discover')).toBe(1)
    expect(modern.seen.get('tools/call')).toBe(1)
    expect(legacy.received.filter((m) => m.method === 'initialize')).toHaveLength(1)
  })

  it('with sseFallback set, a modern server’s refusal of initialize is no reason to try legacy SSE', async () => {
    const modern = await modernHttp()
    const viaModern = await offered({ ...http(modern.url), sseFallback: true })
    expect(viaModern.result).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] })
    expect(viaModern.host.logs.join('\n')).not.toMatch(/connection attempt failed/)
  })

  it('over stdio: a modern-only v2 child and a legacy v1 child offer the same echo', async () => {
    const viaModern = await offered(stdio('reject'))
    const viaLegacy = await offered(stdio('legacy'))
    expect(viaModern.names).toEqual(['mcp__twin__echo'])
    expect(viaModern.names).toEqual(viaLegacy.names)
    expect(viaModern.result).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }] })
    expect(viaModern.result).toEqual(viaLegacy.result)
    expect(viaModern.host.logs.join('\n')).not.toMatch(/connection attempt failed/)
  })

  it('a modern server that needs input the bridge cannot give fails the call with the server’s reason', async () => {
    const modern = await modernHttp()
    const host = await startHost()
    await host.load(http(modern.url))
    // The v2 server itself refuses to ask a client that declared no elicitation (-32021).
    expect(await host.tools.execute('mcp__twin__ask', {})).toMatchObject({
      isError: true,
      error: { code: 'TOOL_ERROR', message: expect.stringMatching(/ask failed on the server \(JSON-RPC error -32021\): .*elicitation/) },
    })
  })
})
