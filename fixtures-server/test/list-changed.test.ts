import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, describe, expect, it } from 'vitest'
import { GENERATION_META_KEY, type WireEntry } from '../src/index.ts'
import { example, KINDS, liveFixtureChildren, open, rawList } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

/** Collects list_changed notifications; `count(n)` settles once n have arrived. */
function listen(client: Client) {
  const seen: Array<Record<string, unknown> | undefined> = []
  const waiters: Array<{ n: number; resolve: () => void }> = []
  client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => {
    seen.push(notification.params)
    for (const waiter of waiters.filter((w) => seen.length >= w.n)) waiter.resolve()
  })
  return {
    seen,
    count: (n: number) => new Promise<void>((resolve) => (seen.length >= n ? resolve() : waiters.push({ n, resolve }))),
  }
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name)
const generationOf = (params: Record<string, unknown> | undefined) => (params?._meta as Record<string, number> | undefined)?.[GENERATION_META_KEY]
const isListChanged = (entry: WireEntry) => 'method' in entry.msg && entry.msg.method === 'notifications/tools/list_changed'

describe.each(KINDS)('list_changed over %s', (kind) => {
  it('runs the timeline when the control tool is called: add, rename + schema change, notify before ready', async () => {
    const fx = await open(kind, example('list-changed.yaml'))
    try {
      const notes = listen(fx.client)
      const first = await rawList(fx.client)
      expect(first._meta).toEqual({ [GENERATION_META_KEY]: 1 })
      expect(first.tools.map((tool) => tool.name)).toEqual(['notify', 'keep', 'old_name', 'fixture_status'])
      expect(fx.client.getServerCapabilities()?.tools).toEqual({ listChanged: true })

      await fx.client.callTool({ name: 'notify' })
      await notes.count(3)
      // Steps 1 and 2 land before their notification; step 3 is announced while generation 3 is
      // still current: the client hears of a list that is not there yet.
      expect(notes.seen.map(generationOf)).toEqual([2, 3, 3])

      await expect.poll(() => rawList(fx.client).then((list) => list._meta?.[GENERATION_META_KEY])).toBe(4)
      expect(await names(fx.client)).toEqual(['notify', 'keep', 'new_name', 'fixture_status', 'late'])
      const keep = (await fx.client.listTools()).tools.find((tool) => tool.name === 'keep')
      expect(keep?.inputSchema).toEqual({ type: 'object', properties: { x: { type: 'number' } } })
      expect(notes.seen).toHaveLength(3)
    } finally {
      await fx.close()
    }
  })

  it('starts after a delay from initialization by default', async () => {
    const fx = await open(kind, { tools: [{ name: 'a' }], listChanged: { afterMs: 30, steps: [{ at: 1, add: [{ name: 'late' }] }] } })
    try {
      const notes = listen(fx.client)
      await notes.count(1)
      expect(await names(fx.client)).toEqual(['a', 'late'])
    } finally {
      await fx.close()
    }
  })

  it('storms after the Nth answered call, even without advertising the capability, and can change silently', async () => {
    const fx = await open(kind, {
      tools: [{ name: 'a' }],
      listChanged: { capability: false, afterCalls: 2, count: 25, steps: [{ at: 26, add: [{ name: 'silent' }] }] },
    })
    try {
      expect(fx.client.getServerCapabilities()?.tools).toEqual({})
      const notes = listen(fx.client)
      await fx.client.callTool({ name: 'a' })
      await fx.client.callTool({ name: 'a' })
      await notes.count(25)
      expect(await names(fx.client)).toEqual(['a', 'silent'])
      expect(notes.seen).toHaveLength(25)
      // Nothing before the second call was answered.
      const wire = fx.wire()
      const secondAnswer = wire.findIndex((entry) => entry.dir === 'send' && 'id' in entry.msg && entry.msg.id === 2)
      expect(wire.findIndex(isListChanged)).toBeGreaterThan(secondAnswer)
    } finally {
      await fx.close()
    }
  })
})
