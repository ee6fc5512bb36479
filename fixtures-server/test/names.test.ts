import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { example, KINDS, liveFixtureChildren, open, type Opened, rawCall, rawList } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

const LONG = 'a'.repeat(128)

describe.each(KINDS)('names and tool sets over %s', (kind) => {
  let fx: Opened
  beforeAll(async () => {
    fx = await open(kind, example('names.yaml'))
  })
  afterAll(() => fx.close())

  it('lists the raw list exactly as scripted: odd names, collisions, repeats', async () => {
    const { tools, nextCursor } = await rawList(fx.client)
    expect(nextCursor).toBeUndefined()
    expect(tools.map((tool) => tool.name)).toEqual([
      'admin.reset',
      LONG,
      'wetter_abfrage_für_städte',
      'has space/slash!',
      'a.b',
      'a_b',
      'twin',
      'twin',
      'no_schema',
      'bad_schema',
      'annotated',
      'task_only',
    ])
  })

  it('serves missing and invalid input schemas, annotations and task support verbatim', async () => {
    const { tools } = await rawList(fx.client)
    const byName = (name: string) => tools.find((tool) => tool.name === name)!
    expect(byName('no_schema')).toEqual({ name: 'no_schema' })
    expect(byName('bad_schema')).toEqual({ name: 'bad_schema', inputSchema: { type: 'string' } })
    expect(byName('annotated')).toEqual({
      name: 'annotated',
      title: 'Annotated tool',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      annotations: { readOnlyHint: true, destructiveHint: false },
      execution: { taskSupport: 'forbidden' },
    })
    expect(byName('task_only').execution).toEqual({ taskSupport: 'required' })
    // What the SDK client does with such a list: it refuses the whole page.
    await expect(fx.client.listTools()).rejects.toThrow(/inputSchema/)
  })

  it('answers calls to every odd name; a repeated name answers as its first entry', async () => {
    for (const name of ['admin.reset', LONG, 'wetter_abfrage_für_städte', 'has space/slash!', 'a.b', 'a_b']) {
      expect(await rawCall(fx.client, name, { n: name.length })).toEqual({ content: [{ type: 'text', text: JSON.stringify({ n: name.length }) }] })
    }
    expect(await rawCall(fx.client, 'twin')).toEqual({ content: [{ type: 'text', text: 'first twin' }] })
  })

  it('answers an unknown tool with -32602', async () => {
    await expect(rawCall(fx.client, 'nope')).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: nope') })
  })
})
