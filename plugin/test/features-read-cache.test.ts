import { startHttpFixture, type BehaviourInput, type HttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { systemClock } from '@mcp-bridge/process'
import { clientAsks } from '../src/asks/client-asks.ts'
import { parseConfig } from '../src/config.ts'
import { McpServer } from '../src/features/handle.ts'
import { ReadCache } from '../src/features/read-cache.ts'
import type { ResourceUpdate } from '../src/features/service.ts'
import { afterTest } from './support/cleanup.ts'
import { hostWithService, servedAs } from './support/features-host.ts'

/**
 * `resources/read` results held by a 2026-07-28 server's cache hint (server/utilities/caching
 * lists resources/read among the cacheable results; ReadResourceResult extends CacheableResult in
 * the 2026-07-28 schema), against the real fixture over Streamable HTTP, whose wire log counts
 * the reads that reached it.
 */
const A = 'fixture://notes/1'
const B = 'fixture://notes/2'
const read = (text: string) => ({ contents: [{ uri: A, text }] })

describe('ReadCache', () => {
  it('serves a read while fresh, lets it go when stale, and drops one on request', () => {
    const cache = new ReadCache(1_000)
    cache.put(A, read('one'), 10, 100)
    expect(cache.get(A, 99)).toEqual(read('one'))
    expect(cache.get(A, 100)).toBeUndefined()
    expect(cache.size).toBe(0)
    cache.put(A, read('two'), 10, 100)
    cache.drop(A)
    expect(cache.get(A, 0)).toBeUndefined()
  })

  it('holds at most maxEntries URIs and maxBytes in all, the oldest going first; never one larger than maxBytes', () => {
    const cache = new ReadCache(100, 2)
    cache.put('a', read('a'), 40, 1e9)
    cache.put('b', read('b'), 40, 1e9)
    cache.put('c', read('c'), 40, 1e9)
    expect([cache.get('a', 0), cache.size]).toEqual([undefined, 2])
    cache.put('d', read('d'), 90, 1e9)
    expect([cache.get('b', 0), cache.get('c', 0), cache.get('d', 0)]).toEqual([undefined, undefined, read('d')])
    cache.put('e', read('e'), 101, 1e9)
    expect([cache.get('e', 0), cache.get('d', 0)]).toEqual([undefined, read('d')])
  })
})

async function serve(resources: BehaviourInput['resources'], era: 'legacy' | 'modern' = 'modern') {
  const fixture: HttpFixture = afterTest(await startHttpFixture({ era, tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }], resources }, { memoryWire: true }), (f) => f.close())
  const reads = () => fixture.wire!.entries.filter((entry) => entry.dir === 'recv' && (entry.msg as { method?: string }).method === 'resources/read').length
  const host = await hostWithService()
  await host.load({ serverName: 'reads', transport: 'streamable-http', url: fixture.url, features: { resources: true } })
  return { server: await servedAs(host, 'reads'), reads }
}

const notes = [
  { uri: A, name: 'one', text: 'one' },
  { uri: B, name: 'two', text: 'two' },
]

describe('resources/read with 2026-07-28 cache hints', () => {
  it('a read with a positive ttlMs is served from the session until it goes stale; each URI is its own key', async () => {
    const { server, reads } = await serve({ items: notes, ttlMs: 3_600_000, cacheScope: 'private' })
    for (let i = 0; i < 3; i++) expect((await server.readResource(A)).contents).toEqual([{ uri: A, text: 'one' }])
    expect(reads()).toBe(1)
    expect((await server.readResource(B)).contents).toEqual([{ uri: B, text: 'two' }])
    expect(reads()).toBe(2)
    // A new session starts with nothing held (perhaps other credentials: cacheScope private).
    await server.reconnect()
    await server.readResource(A)
    expect(reads()).toBe(3)
  })

  it('ttlMs 0 (immediately stale), and a legacy server without hints, are asked on every read', async () => {
    const modern = await serve({ items: notes, ttlMs: 0 })
    const legacy = await serve({ items: notes }, 'legacy')
    for (let i = 0; i < 3; i++) {
      await modern.server.readResource(A)
      await legacy.server.readResource(A)
    }
    expect([modern.reads(), legacy.reads()]).toEqual([3, 3])
  })

  it('an update of the URI makes its held read stale', async () => {
    // The fixture follows every subscribe with an update of A.
    const { server, reads } = await serve({ items: notes, ttlMs: 3_600_000, subscribe: { alsoUpdate: [A] } })
    await server.readResource(A)
    await server.readResource(A)
    expect(reads()).toBe(1)
    const updates: ResourceUpdate[] = []
    await server.subscribe(A, (update) => void updates.push(update))
    await expect.poll(() => updates.length).toBeGreaterThan(0)
    await server.readResource(A)
    expect(reads()).toBe(2)
  })
})

describe('a read answered after an ask of the instance', () => {
  /**
   * The SDK answers a 2026-07-28 input_required round inside the one request, so the bridge sees
   * only that some ask was taken while the read was in flight. Here the session is scripted: its
   * resources/read runs the instance's real roots/list handler (asks/client-asks.ts) before it
   * answers, as a retried read would have.
   */
  function scripted(askDuringRead: () => boolean) {
    const config = parseConfig({ serverName: 'asks', transport: 'stdio', command: 'node', roots: [{ uri: 'file:///srv/a' }], features: { resources: true } })
    const handlers = new Map<string, () => unknown>()
    clientAsks(config, (text) => text, () => {}).register({ setRequestHandler: (method: string, handler: () => unknown) => void handlers.set(method, handler) } as never)
    let reads = 0
    const session = {
      capabilities: { resources: {} },
      request: async () => {
        reads++
        if (askDuringRead()) await handlers.get('roots/list')!()
        return { contents: [{ uri: A, text: 'one' }], ttlMs: 3_600_000, cacheScope: 'private' }
      },
    }
    const connection = { clock: systemClock, live: () => session }
    const log = { debug() {}, info() {}, warn() {}, error() {} }
    return { server: new McpServer(connection as never, config, (text) => text, log as never), reads: () => reads }
  }

  it('is never held: it may be the answer of a retried request, which MUST NOT be cached', async () => {
    let ask = true
    const { server, reads } = scripted(() => ask)
    await server.readResource(A)
    await server.readResource(A)
    expect(reads()).toBe(2)
    // With no ask in flight the same answer is held.
    ask = false
    await server.readResource(A)
    await server.readResource(A)
    expect(reads()).toBe(3)
  })
})
