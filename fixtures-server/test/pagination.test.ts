import { afterAll, describe, expect, it } from 'vitest'
import { example, KINDS, liveFixtureChildren, open, rawList } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

describe.each(KINDS)('pagination over %s', (kind) => {
  it('walks a long cursor chain of distinct cursors, tools in order, then ends', async () => {
    const fx = await open(kind, example('pagination.yaml'))
    try {
      const pages: string[][] = []
      const cursors: string[] = []
      let cursor: string | undefined
      do {
        const page = await fx.client.listTools(cursor === undefined ? {} : { cursor })
        pages.push(page.tools.map((tool) => tool.name))
        cursor = page.nextCursor
        if (cursor !== undefined) cursors.push(cursor)
      } while (cursor !== undefined)
      expect(pages).toEqual([['t1', 't2'], ['t3', 't4'], [], [], []])
      expect(new Set(cursors).size).toBe(4)
      await expect(fx.client.listTools({ cursor: 'forged' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Invalid cursor') })
    } finally {
      await fx.close()
    }
  })

  it('repeats one cursor forever, and fails a scripted page with -32602', async () => {
    const fx = await open(kind, {
      tools: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
      pagination: { pageSize: 1, cursor: 'repeat' },
    })
    const failing = await open(kind, { tools: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], pagination: { pageSize: 1, failPage: 3 } })
    try {
      const first = await rawList(fx.client)
      let cursor = first.nextCursor!
      for (let i = 0; i < 10; i++) {
        const page = await rawList(fx.client, cursor)
        expect(page.tools.map((tool) => tool.name)).toEqual(['b'])
        expect(page.nextCursor).toBe(cursor)
        cursor = page.nextCursor!
      }
      const second = await failing.client.listTools({ cursor: (await failing.client.listTools()).nextCursor! })
      await expect(failing.client.listTools({ cursor: second.nextCursor! })).rejects.toMatchObject({ code: -32602 })
    } finally {
      await Promise.all([fx.close(), failing.close()])
    }
  })
})
