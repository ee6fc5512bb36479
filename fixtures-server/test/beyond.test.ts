import { createHash } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { KINDS, liveFixtureChildren, open } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

const BEHAVIOUR = {
  resources: {
    pageSize: 2,
    items: [
      { uri: 'fixture://a', name: 'a', text: 'alpha' },
      { uri: 'fixture://Read%20Me?x=1', name: 'b', text: 'ab', repeatTo: 5 },
      { uri: 'fixture://bin', name: 'bin', mimeType: 'application/octet-stream', bytes: 300 },
    ],
    templates: [{ uriTemplate: 'fixture://files/{path}', name: 'files' }],
  },
  prompts: { items: [{ name: 'weather', arguments: [{ name: 'city', required: true }], text: 'Weather in {city}?' }] },
  completions: { city: ['Paris', 'Parma', 'Lisbon'] },
}

describe.each(KINDS)('resources, prompts and completions over %s', (kind) => {
  it('declares what it serves, pages resources with opaque cursors, reads by the exact URI only', async () => {
    const fx = await open(kind, BEHAVIOUR)
    try {
      expect(fx.client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {}, completions: {} })
      expect(fx.client.getServerCapabilities()?.logging).toBeUndefined()
      const first = await fx.client.listResources()
      expect(first.resources.map((r) => r.uri)).toEqual(['fixture://a', 'fixture://Read%20Me?x=1'])
      const second = await fx.client.listResources({ cursor: first.nextCursor! })
      expect(second).toMatchObject({ resources: [{ uri: 'fixture://bin' }] })
      expect(second.nextCursor).toBeUndefined()
      await expect(fx.client.listResources({ cursor: first.nextCursor!.toUpperCase() })).rejects.toMatchObject({ code: -32602 })
      expect((await fx.client.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'fixture://files/{path}', name: 'files' }])
      expect((await fx.client.readResource({ uri: 'fixture://Read%20Me?x=1' })).contents).toEqual([{ uri: 'fixture://Read%20Me?x=1', text: 'ababa' }])
      await expect(fx.client.readResource({ uri: 'fixture://Read Me?x=1' })).rejects.toMatchObject({ code: -32002 })
      const [blob] = (await fx.client.readResource({ uri: 'fixture://bin' })).contents as Array<{ blob: string }>
      const bytes = Buffer.from(blob!.blob, 'base64')
      expect([bytes.length, bytes[0], bytes[255]]).toEqual([300, 0, 255])
      // Seeded: the same bytes on every read.
      const again = (await fx.client.readResource({ uri: 'fixture://bin' })).contents[0] as { blob: string }
      expect(createHash('sha256').update(Buffer.from(again.blob, 'base64')).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'))
    } finally {
      await fx.close()
    }
  })

  it('gets a prompt with its arguments, refuses a missing required one, completes by prefix', async () => {
    const fx = await open(kind, BEHAVIOUR)
    try {
      expect((await fx.client.listPrompts()).prompts).toEqual([{ name: 'weather', arguments: [{ name: 'city', required: true }] }])
      expect((await fx.client.getPrompt({ name: 'weather', arguments: { city: 'Porto' } })).messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Weather in Porto?' } }])
      await expect(fx.client.getPrompt({ name: 'weather', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('city') })
      expect((await fx.client.complete({ ref: { type: 'ref/prompt', name: 'weather' }, argument: { name: 'city', value: 'Par' } })).completion.values).toEqual(['Paris', 'Parma'])
    } finally {
      await fx.close()
    }
  })

  it('floods an initialized client with exactly the scripted number of log messages', async () => {
    const count = 200
    const fx = await open(kind, { logFlood: { count, level: 'warning' } })
    const sent = () => fx.wire().filter(({ dir, msg }) => dir === 'send' && (msg as { method?: string }).method === 'notifications/message').map(({ msg }) => (msg as unknown as { params: { level: string; data: string } }).params)
    try {
      expect(fx.client.getServerCapabilities()?.logging).toEqual({})
      // Bounded by the flood's own size, not by a clock: the fixture sends them one after another.
      for (let polls = 0; sent().length < count && polls < count * 10; polls++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(sent().length).toBe(count)
      expect(sent().at(-1)).toEqual({ level: 'warning', logger: 'fixture-flood', data: `log line ${count} of ${count}` })
    } finally {
      await fx.close()
    }
  })
})
