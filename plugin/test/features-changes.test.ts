import { fixtureCommand, startHttpFixture, type BehaviourInput, type HttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import type { ListChangedEvent, ResourceUpdate } from '../src/features/service.ts'
import { afterTest } from './support/cleanup.ts'
import type { TestHost } from './support/host.ts'
import { hostWithService, servedAs } from './support/features-host.ts'

/**
 * What the `mcpServers` service follows over time, against the real fixture over stdio and
 * Streamable HTTP: resources and prompts list_changed (re-synced whole, an unusable new list keeps
 * the old one, a change event told), resource subscriptions (updates delivered for subscribed
 * URIs only, bounded, carried across a reconnect) and 2026-07-28 cache hints (ttlMs).
 */
const A = 'fixture://notes/1'
const B = 'fixture://notes/2'
const note = (uri: string, name: string) => ({ uri, name, text: name })

type Era = 'legacy' | 'modern'

const changing = (broken = false, era: Era = 'legacy'): BehaviourInput => ({
  era,
  tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }],
  // A modern server says how long a list is fresh (held for an hour here); a list_changed ends it all the same.
  resources: { items: [note(A, 'one'), note(B, 'two')], change: { next: [note(B, 'two'), note('fixture://notes/3', 'three')], broken }, ...(era === 'modern' && { ttlMs: 3_600_000 }) },
  prompts: { items: [{ name: 'old', text: 'old' }], change: { next: [{ name: 'old', text: 'old' }, { name: 'new', text: 'new' }], broken }, ...(era === 'modern' && { ttlMs: 3_600_000 }) },
})

const subscribing = (era: Era): BehaviourInput => ({
  era,
  tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }],
  // Every subscribe is followed by an update of A too, subscribed or not.
  resources: { items: [note(A, 'one'), note(B, 'two')], subscribe: { alsoUpdate: [A] } },
})

type Target = (behaviour: BehaviourInput) => Promise<{ config: Record<string, unknown>; methods: () => string[] }>

const targets: Record<string, Target> = {
  stdio: async (behaviour) => ({ config: { transport: 'stdio', ...fixtureCommand(behaviour) }, methods: () => [] }),
  http: async (behaviour) => {
    const fixture: HttpFixture = afterTest(await startHttpFixture(behaviour, { memoryWire: true }), (f) => f.close())
    const methods = () => fixture.wire!.entries.filter((entry) => entry.dir === 'recv').map((entry) => String((entry.msg as { method?: string }).method))
    return { config: { transport: 'streamable-http', url: fixture.url }, methods }
  },
}

const changes = (host: TestHost) => {
  const seen: ListChangedEvent[] = []
  host.ctx.on('mcp/list-changed', (event) => void seen.push(event))
  return seen
}

/** Every transport at both eras: a modern server tells of changes only on subscriptions/listen streams. */
const cases = (['legacy', 'modern'] as const).flatMap((era) => Object.entries(targets).map(([name, target]) => [`${name} (${era})`, name, era, target] as const))

describe.each(cases)('list_changed of resources and prompts over %s', (_label, _name, era, target) => {
  it('re-lists after the notice, replaces the list whole and tells the host', async () => {
    const host = await hostWithService()
    const seen = changes(host)
    const { config } = await target(changing(false, era))
    await host.load({ serverName: 'notes', ...config, features: { resources: true, prompts: true } })
    const server = await servedAs(host, 'notes')
    expect((await server.listResources()).map((r) => r.uri)).toEqual([A, B])
    expect((await server.listPrompts()).map((p) => p.name)).toEqual(['old'])
    // The first read (and the first get) makes the fixture change its list and say so.
    await server.readResource(A)
    await server.getPrompt('old')
    await expect.poll(() => seen.map((event) => event.kind).sort()).toEqual(['prompts', 'resources'])
    expect(seen.find((event) => event.kind === 'resources')).toMatchObject({ serverName: 'notes', items: [{ uri: B }, { uri: 'fixture://notes/3' }] })
    expect((await server.listResources()).map((r) => r.uri)).toEqual([B, 'fixture://notes/3'])
    expect((await server.listPrompts()).map((p) => p.name)).toEqual(['old', 'new'])
    expect(await server.getPrompt('new')).toMatchObject({ messages: [{ content: { text: 'new' } }] })
  })

  it('keeps the previous list when the new one cannot be listed, and says so once per list', async () => {
    const host = await hostWithService()
    const seen = changes(host)
    const { config } = await target(changing(true, era))
    await host.load({ serverName: 'notes', ...config, features: { resources: true, prompts: true } })
    const server = await servedAs(host, 'notes')
    expect((await server.listResources()).map((r) => r.uri)).toEqual([A, B])
    await server.readResource(A)
    await expect.poll(() => host.logs.filter((line) => /re-listing the resources of server "notes" after list_changed failed; the previous list stays/.test(line)).length).toBe(1)
    expect((await server.listResources()).map((r) => r.uri)).toEqual([A, B])
    expect(seen).toEqual([])
  })
})

// Legacy only: there the notice travels before the read's answer (stdio's one stream, or the read's
// own HTTP response stream); a modern server tells it on its subscriptions/listen stream.
describe.each(Object.entries(targets))('a list asked after the notice over %s (legacy)', (_name, target) => {
  it('is asked anew, not served from the stale listing, before the debounced re-sync has run', async () => {
    const host = await hostWithService()
    const seen = changes(host)
    const { config } = await target(changing(false, 'legacy'))
    // A debounce no test outlives: only the stale mark can make the second list the new one.
    await host.load({ serverName: 'notes', ...config, features: { resources: true }, listChanged: { debounceMs: 60_000, maxWaitMs: 600_000 } })
    const server = await servedAs(host, 'notes')
    expect((await server.listResources()).map((r) => r.uri)).toEqual([A, B])
    await server.readResource(A)
    expect((await server.listResources()).map((r) => r.uri)).toEqual([B, 'fixture://notes/3'])
    expect(seen).toEqual([])
  })
})

describe.each(cases)('resource subscriptions over %s', (_label, name, era, target) => {
  it('deliver updates of subscribed URIs only, and none after the subscription ends', async () => {
    const host = await hostWithService()
    const { config, methods } = await target(subscribing(era))
    await host.load({ serverName: 'subs', ...config, features: { resources: true } })
    const server = await servedAs(host, 'subs')
    const toA: ResourceUpdate[] = []
    const toB: ResourceUpdate[] = []
    const endA = await server.subscribe(A, (update) => void toA.push(update))
    // The fixture answers the subscribe with an update of A, then A again (alsoUpdate).
    await expect.poll(() => toA.length).toBe(2)
    await endA()
    await server.subscribe(B, (update) => void toB.push(update))
    // B's subscribe brings updates of B and of A: A is no longer subscribed, so A's is ignored.
    await expect.poll(() => toB).toEqual([{ uri: B }])
    // Proof that the update of A arrived (and was dropped): the B update after it was delivered.
    expect(toA).toEqual([{ uri: A }, { uri: A }])
    const resourceMethods = methods().filter((method) => method.startsWith('resources/'))
    if (name === 'http') expect(resourceMethods).toEqual(era === 'legacy' ? ['resources/subscribe', 'resources/unsubscribe', 'resources/subscribe'] : [])
    // At 2026-07-28, one subscriptions/listen per set of URIs: [A], then (A ended) [B].
    if (name === 'http' && era === 'modern') expect(methods().filter((method) => method === 'subscriptions/listen')).toHaveLength(2)
  })

  it('refuse past maxSubscriptions, and with a server that does not declare subscribe, without asking it', async () => {
    const host = await hostWithService()
    const { config, methods } = await target(subscribing(era))
    await host.load({ serverName: 'subs', ...config, features: { resources: true, maxSubscriptions: 1 } })
    const server = await servedAs(host, 'subs')
    await server.subscribe(A, () => {})
    await expect(server.subscribe(B, () => {})).rejects.toMatchObject({ code: 'INVALID_ARGS', message: expect.stringMatching(/already has features\.maxSubscriptions \(1\) subscribed URIs/) })
    // A second listener of a URI already subscribed is no new URI.
    await server.subscribe(A, () => {})
    if (name === 'http') expect(methods().filter((method) => method === (era === 'legacy' ? 'resources/subscribe' : 'subscriptions/listen'))).toHaveLength(1)

    const { config: plain } = await target({ ...changing(false, era), resources: { items: [note(A, 'one')] } })
    await host.load({ serverName: 'plain', ...plain, features: { resources: true } })
    await expect((await servedAs(host, 'plain')).subscribe(A, () => {})).rejects.toMatchObject({ code: 'NOT_OFFERED', message: expect.stringMatching(/does not declare resources\.subscribe/) })
  })

  it('are subscribed again on the new session after a reconnect', async () => {
    const host = await hostWithService()
    const { config, methods } = await target(subscribing(era))
    await host.load({ serverName: 'subs', ...config, features: { resources: true } })
    const server = await servedAs(host, 'subs')
    const toB: ResourceUpdate[] = []
    await server.subscribe(B, (update) => void toB.push(update))
    await expect.poll(() => toB.length).toBe(1)
    expect((await server.reconnect()).kind).toBe('connected')
    // The new session's subscribe of B brings B's update again.
    await expect.poll(() => toB.length).toBe(2)
    if (name === 'http') expect(methods().filter((method) => method === (era === 'legacy' ? 'resources/subscribe' : 'subscriptions/listen'))).toHaveLength(2)
  })
})

describe('2026-07-28 cache hints', () => {
  it('a list with a positive ttlMs is served from the cache; with ttlMs 0 it is asked again', async () => {
    const host = await hostWithService()
    const { config, methods } = await targets.http!({
      era: 'modern',
      tools: [{ name: 'echo', result: { content: [{ type: 'echo' }] } }],
      resources: { items: [note(A, 'one')], ttlMs: 3_600_000, cacheScope: 'public' },
      prompts: { items: [{ name: 'old', text: 'old' }], ttlMs: 0 },
    })
    await host.load({ serverName: 'hints', ...config, features: { resources: true, prompts: true } })
    const server = await servedAs(host, 'hints')
    for (let i = 0; i < 3; i++) {
      expect((await server.listResources()).map((r) => r.uri)).toEqual([A])
      expect((await server.listPrompts()).map((p) => p.name)).toEqual(['old'])
    }
    expect(methods().filter((method) => method === 'resources/list')).toHaveLength(1)
    expect(methods().filter((method) => method === 'prompts/list')).toHaveLength(3)
  })
})
