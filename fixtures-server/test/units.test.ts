import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { renderResult, type FixtureStatus } from '../src/content.ts'
import { cursorCodec, paginate } from '../src/pagination.ts'
import { parseBehaviour } from '../src/parse.ts'
import { planTimeline } from '../src/timeline.ts'
import { Timers } from '../src/timers.ts'
import { ToolSet } from '../src/tool-set.ts'

const items = ['a', 'b', 'c', 'd', 'e']
const pages = (spec: Parameters<typeof paginate>[1]) => {
  const seen: string[][] = []
  let cursor: string | undefined
  do {
    const result = paginate(items, spec, cursor, 1)
    if (!result.ok) throw new Error(result.message)
    seen.push(result.page.items)
    cursor = result.page.nextCursor
  } while (cursor !== undefined && seen.length < 20)
  return seen
}

describe('pagination', () => {
  it('serves everything at once without a pagination section', () => {
    expect(pages(undefined)).toEqual([items])
    expect(paginate(items, undefined, 'x', 1)).toEqual({ ok: false, message: 'Invalid cursor' })
  })

  it('pages, then chains empty pages', () => {
    expect(pages({ pageSize: 2, cursor: 'opaque', emptyPages: 2 })).toEqual([['a', 'b'], ['c', 'd'], ['e'], [], []])
  })

  it('fails the scripted page and unknown cursors with Invalid cursor', () => {
    const codec = cursorCodec(1)
    const spec = { pageSize: 2, cursor: 'opaque', emptyPages: 0, failPage: 3 } as const
    expect(paginate(items, spec, codec.encode(2), 1)).toMatchObject({ ok: true })
    expect(paginate(items, spec, codec.encode(3), 1)).toEqual({ ok: false, message: 'Invalid cursor' })
    expect(paginate(items, spec, codec.encode(9), 1)).toEqual({ ok: false, message: 'Invalid cursor' })
    expect(paginate(items, spec, 'garbage', 1)).toEqual({ ok: false, message: 'Invalid cursor' })
  })

  it('repeat hands back the cursor it received, forever', () => {
    const spec = { pageSize: 2, cursor: 'repeat', emptyPages: 0 } as const
    const first = paginate(items, spec, undefined, 1)
    const cursor = first.ok ? first.page.nextCursor! : ''
    for (let i = 0; i < 3; i++) expect(paginate(items, spec, cursor, 1)).toEqual({ ok: true, page: { items: ['c', 'd'], nextCursor: cursor } })
  })

  it('cycle goes round from the last page back to the second, never handing back the cursor it received', () => {
    const spec = { pageSize: 2, cursor: 'cycle', emptyPages: 0 } as const
    const codec = cursorCodec(1)
    expect(paginate(items, spec, codec.encode(2), 1)).toEqual({ ok: true, page: { items: ['c', 'd'], nextCursor: codec.encode(3) } })
    expect(paginate(items, spec, codec.encode(3), 1)).toEqual({ ok: true, page: { items: ['e'], nextCursor: codec.encode(2) } })
  })

  it('derives cursors from the seed', () => {
    expect(cursorCodec(1).encode(2)).toBe(cursorCodec(1).encode(2))
    expect(cursorCodec(1).encode(2)).not.toBe(cursorCodec(2).encode(2))
  })
})

describe('list_changed timeline', () => {
  const spec = (value: unknown) => parseBehaviour({ listChanged: value }).listChanged!

  it('lands unlagged steps before their notification and lagged ones after', () => {
    const plan = planTimeline(spec({ count: 3, intervalMs: 10, lagMs: 0, steps: [{ at: 1, add: [{ name: 'x' }] }, { at: 3, remove: ['x'], lagMs: 25 }] }))
    expect(plan.map((e) => ('notify' in e ? `${e.atMs} notify ${e.notify}` : `${e.atMs} apply ${e.apply.at}`))).toEqual([
      '0 apply 1',
      '0 notify 1',
      '10 notify 2',
      '20 notify 3',
      '45 apply 3',
    ])
  })

  it('changes the list silently for steps beyond count, and defaults count to the last step', () => {
    expect(planTimeline(spec({ count: 1, steps: [{ at: 2, add: [{ name: 'y' }] }] })).map((e) => Object.keys(e)[1])).toEqual(['notify', 'apply'])
    expect(planTimeline(spec({ steps: [{ at: 4 }] })).filter((e) => 'notify' in e)).toHaveLength(4)
  })
})

describe('tool set', () => {
  it('keeps the scripted list as is and applies mutations, counting generations', () => {
    const { tools } = parseBehaviour({ tools: [{ name: 'dup' }, { name: 'dup', description: 'second' }, { name: 'old' }, { name: 'x', inputSchema: null }] })
    const set = new ToolSet(tools)
    expect(set.list().map((t) => t.name)).toEqual(['dup', 'dup', 'old', 'x'])
    expect(set.list()[3]).toEqual({ name: 'x' })
    expect(set.find('dup')?.description).toBeUndefined()
    set.apply({ at: 1 })
    expect(set.generation).toBe(1)
    set.apply({ at: 2, remove: ['dup'], rename: [{ from: 'old', to: 'new' }], update: [{ name: 'x', inputSchema: { type: 'object' } }], add: tools.slice(0, 1) })
    expect(set.generation).toBe(2)
    expect(set.list()).toEqual([
      { name: 'new', inputSchema: { type: 'object' } },
      { name: 'x', inputSchema: { type: 'object' } },
      { name: 'dup', inputSchema: { type: 'object' } },
    ])
  })
})

describe('result rendering', () => {
  const status: FixtureStatus = { start: 1, calls: 1, generation: 1, cancellations: [], sessions: 1 }
  const render = (result: unknown, seed = 1) =>
    renderResult(parseBehaviour({ tools: [{ name: 't', result }] }).tools[0]!.result, {
      seed,
      tool: 't',
      args: { q: 1 },
      envNames: () => ['SECRET_TOKEN', 'PATH', 'MCP_X'],
      status: () => status,
    })

  it('echoes arguments by default and lists env names only, filtered and sorted', () => {
    expect(renderResult(undefined, { seed: 1, tool: 't', args: { q: 1 }, envNames: () => [], status: () => status })).toEqual({
      content: [{ type: 'text', text: '{"q":1}' }],
    })
    expect(render({ content: [{ type: 'env' }, { type: 'env', prefix: 'MCP_' }] }).content).toEqual([
      { type: 'text', text: '["MCP_X","PATH","SECRET_TOKEN"]' },
      { type: 'text', text: '["MCP_X"]' },
    ])
  })

  it('builds text of an exact size, resources, links and raw blocks', () => {
    const { content } = render({
      isError: true,
      content: [
        { type: 'text', bytes: 1000 },
        { type: 'resource', uri: 'file:///a', text: 'hi' },
        { type: 'resource_link', uri: 'file:///b', name: 'b' },
        { type: 'raw', value: { type: 'hologram' } },
        { type: 'status' },
      ],
    }) as { content: Array<Record<string, unknown>> }
    expect((content[0]!.text as string).length).toBe(1000)
    expect(content.slice(1)).toEqual([
      { type: 'resource', resource: { uri: 'file:///a', text: 'hi' } },
      { type: 'resource_link', uri: 'file:///b', name: 'b' },
      { type: 'hologram' },
      { type: 'text', text: JSON.stringify(status) },
    ])
  })

  it('is a function of the seed', () => {
    const images = { content: [{ type: 'image', format: 'png', repeat: 2 }, { type: 'text', bytes: 50 }] }
    expect(render(images, 5)).toEqual(render(images, 5))
    expect(render(images, 5)).not.toEqual(render(images, 6))
  })
})

describe('timers', () => {
  it('a finished sleep leaves no listener on its signal, and an aborted one ends at once', async () => {
    const timers = new Timers()
    const controller = new AbortController()
    for (let i = 0; i < 20; i++) await timers.sleep(0, controller.signal)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    const pending = timers.sleep(60_000, controller.signal)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    controller.abort()
    await pending
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    timers.stop()
  })
})
