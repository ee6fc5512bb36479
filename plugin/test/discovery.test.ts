import { describe, expect, it } from 'vitest'
import { drainToolPages, planTools, type ToolPage } from '../src/discovery.ts'
import { createDefinition } from '../src/definition.ts'

const limits = { maxPages: 5, maxTools: 100, maxDescriptionChars: 20, maxSchemaChars: 200 }
const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, inputSchema: { type: 'object' }, ...extra })

function pages(...chain: ToolPage[]) {
  const requested: Array<string | undefined> = []
  return {
    requested,
    list: async (cursor: string | undefined) => {
      requested.push(cursor)
      const page = chain[requested.length - 1]
      if (!page) throw new Error('no such page')
      return page
    },
  }
}

describe('drainToolPages', () => {
  it('follows the cursor chain to its end', async () => {
    const server = pages({ tools: [tool('a')], nextCursor: 'p2' }, { tools: [tool('b')], nextCursor: 'p3' }, { tools: [tool('c')] })
    expect(await drainToolPages(server.list, limits)).toHaveLength(3)
    expect(server.requested).toEqual([undefined, 'p2', 'p3'])
  })

  it('refuses a cursor that repeats', async () => {
    const server = pages({ tools: [], nextCursor: 'same' }, { tools: [], nextCursor: 'same' }, { tools: [] })
    await expect(drainToolPages(server.list, limits)).rejects.toThrow(/cursor "same" twice/)
  })

  it('refuses a chain longer than maxPages', async () => {
    const list = async (cursor: string | undefined) => ({ tools: [], nextCursor: `c${Number(cursor?.slice(1) ?? 0) + 1}` })
    await expect(drainToolPages(list, limits)).rejects.toThrow(/exceeded limits.maxPages \(5\)/)
  })

  it('refuses more tools than maxTools and malformed pages', async () => {
    const many = pages({ tools: Array.from({ length: 101 }, (_, i) => tool(`t${i}`)) })
    await expect(drainToolPages(many.list, limits)).rejects.toThrow(/more than limits.maxTools/)
    const broken = pages({ tools: 'nope' as unknown as unknown[] })
    await expect(drainToolPages(broken.list, limits)).rejects.toThrow(/no "tools" array/)
  })
})

describe('planTools', () => {
  it('derives both names for every tool', () => {
    const plan = planTools('srv', [tool('echo', { description: 'says' }), tool('admin.reset')], limits)
    expect(plan.tools.map((t) => [t.rawName, t.publicName.replace(/_[0-9a-f]{12}$/, '_<hash>')])).toEqual([
      ['echo', 'mcp__srv__echo'],
      ['admin.reset', 'mcp__srv__admin_reset_<hash>'],
    ])
    expect(plan.tools[0]?.description).toBe('says')
  })

  it('rejects a list that repeats a raw name', () => {
    expect(() => planTools('srv', [tool('dup'), tool('dup')], limits)).toThrow(/listed tool "dup" more than once/)
  })

  it('quarantines individually broken tools with a reason', () => {
    const plan = planTools(
      'srv',
      [
        tool('ok'),
        { name: 'no_schema' },
        tool('array_schema', { inputSchema: { type: 'array' } }),
        tool('huge', { inputSchema: { type: 'object', description: 'x'.repeat(300) } }),
        tool('tasky', { execution: { taskSupport: 'required' } }),
        { name: 42, inputSchema: { type: 'object' } },
        'not an object',
      ],
      limits,
    )
    expect(plan.tools.map((t) => t.rawName)).toEqual(['ok'])
    expect(plan.quarantined.map((q) => q.name)).toEqual(['no_schema', 'array_schema', 'huge', 'tasky', '42', 'undefined'])
    expect(plan.quarantined[2]?.reason).toMatch(/over limits.maxSchemaChars/)
    // Without the server's tasks capability a task-only tool could only fail (task-tools.test.ts has the rest).
    expect(plan.quarantined[3]?.reason).toMatch(/requires task-based execution, but the server does not declare/)
  })

  it('bounds descriptions with a visible notice', () => {
    const [bridged] = planTools('srv', [tool('long', { description: 'd'.repeat(50) })], limits).tools
    expect(bridged?.description).toBe(`${'d'.repeat(20)}… [description truncated from 50 characters]`)
  })
})

describe('re-sync signatures', () => {
  it("a definition recomputes exactly its tool's signature, so an unchanged tool is kept on re-sync", () => {
    const listed = [
      { name: 'plain', description: 'd', inputSchema: { type: 'object' } },
      { name: 'typed', inputSchema: { type: 'object', properties: { a: { type: 'string' } } }, outputSchema: { type: 'object' } },
      { name: 'tasky', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
    ]
    const plan = planTools('s', listed, { maxDescriptionChars: 100, maxSchemaChars: 10_000 }, { serverSupportsTasks: true, preferTaskCalls: false })
    expect(plan.tools).toHaveLength(3)
    for (const tool of plan.tools) {
      const definition = createDefinition(tool, { serverName: 's', invoke: async () => ({}), limits: { maxResultTextChars: 100, maxResultBytes: 1000 }, imageServices: () => ({}), warn: () => {} })
      expect((definition as unknown as { signature: string }).signature).toBe(tool.signature)
    }
    // Anything the bridge uses changes it.
    const changed = planTools('s', [{ ...listed[1], outputSchema: { type: 'object', required: ['x'] } }], { maxDescriptionChars: 100, maxSchemaChars: 10_000 })
    expect(changed.tools[0]!.signature).not.toBe(plan.tools[1]!.signature)
  })
})
