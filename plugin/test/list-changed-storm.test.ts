import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { publicToolName } from '../src/index.ts'
import { afterTest } from './support/cleanup.ts'
import { serveHttp } from './support/http-server.ts'
import { startHost, whenTools } from './support/host.ts'


/** Generation k of the server's tool list: every generation differs from every other. */
const generation = (k: number) => ['stable', `added_${k}`, `renamed_${k % 7}_${k}`].map((name) => ({ name, inputSchema: { type: 'object', properties: { v: { const: k } } } }))
const publicSet = (k: number) => generation(k).map((t) => publicToolName('storm', t.name)).sort().join(',')

describe('a list_changed storm', () => {
  it('converges on the final list in a few round-trips, and no observer ever sees a partial generation', async () => {
    let current = 0
    let lists = 0
    const servers: Server[] = []
    const server = await serveHttp(() => {
      const s = new Server({ name: 'storm', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } })
      s.setRequestHandler(ListToolsRequestSchema, async () => {
        lists++
        return { tools: generation(current) as never }
      })
      servers.push(s)
      return s
    })
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'storm', url: server.url, listChanged: { debounceMs: 50, maxWaitMs: 1_000 } })
    expect(lists).toBe(1)

    const published = new Set([publicSet(0)])
    const samples: string[] = []
    const sample = () => samples.push(host.tools.list().map((t) => t.name).join(','))
    host.ctx.on('tools/change', sample)
    const sampler = afterTest(setInterval(sample, 1), clearInterval)

    const NOTIFICATIONS = 1_000
    for (let k = 1; k <= NOTIFICATIONS; k++) {
      current = k
      published.add(publicSet(k))
      await Promise.all(servers.map((s) => s.sendToolListChanged()))
    }
    await whenTools(host, (names) => names.join(',') === publicSet(NOTIFICATIONS))
    clearInterval(sampler)

    expect(lists - 1).toBeGreaterThanOrEqual(1)
    // Without coalescing this would be 1,000 round-trips.
    expect(lists - 1).toBeLessThanOrEqual(20)
    expect(samples.length).toBeGreaterThan(0)
    const partial = samples.filter((s) => !published.has(s))
    expect(partial).toEqual([])
  })
})
