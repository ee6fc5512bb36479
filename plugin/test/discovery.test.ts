import { describe, expect, it } from 'vitest'
import { declaresToolTasks, drainToolPages, planTools, toolSignature, type ToolPage } from '../src/discovery.ts'
import { PlannedTool } from '../src/definition.ts'
import { publicToolName } from '../src/naming.ts'

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
      const definition = new PlannedTool(tool, { serverName: 's', invoke: async () => ({}), limits: { maxResultTextChars: 100, maxResultBytes: 1000 }, imageServices: () => ({}), warn: () => {} }).create()
      expect((definition as unknown as { signature: string }).signature).toBe(toolSignature(tool))
    }
    // Anything the bridge uses changes it.
    const changed = planTools('s', [{ ...listed[1], outputSchema: { type: 'object', required: ['x'] } }], { maxDescriptionChars: 100, maxSchemaChars: 10_000 })
    expect(toolSignature(changed.tools[0]!)).not.toBe(toolSignature(plan.tools[1]!))
  })
})

describe('drainToolPages: where a chain ends and where it is refused', () => {
  it('ends on a missing, null or empty nextCursor after one page', async () => {
    for (const nextCursor of [undefined, null, '']) {
      const server = pages({ tools: [tool('a')], nextCursor }, { tools: [tool('b')] })
      expect(await drainToolPages(server.list, limits)).toEqual([tool('a')])
      expect(server.requested).toEqual([undefined])
    }
  })

  it('refuses a nextCursor that is not a string, as an invalid tool list', async () => {
    for (const nextCursor of [42, { page: 2 }, true]) {
      const server = pages({ tools: [], nextCursor }, { tools: [] })
      const error = await drainToolPages(server.list, limits).catch((e: unknown) => e)
      expect(error).toMatchObject({ name: 'BridgeError', code: 'INVALID_TOOL_LIST', message: 'tools/list returned a nextCursor that is not a string' })
      expect(server.requested).toEqual([undefined])
    }
  })

  it('takes exactly maxPages pages, and refuses the chain when page maxPages still has a cursor', async () => {
    const chain = (length: number) => Array.from({ length }, (_, i): ToolPage => ({ tools: [tool(`t${i}`)], ...(i < length - 1 ? { nextCursor: `c${i + 1}` } : {}) }))
    const fits = pages(...chain(5))
    expect(await drainToolPages(fits.list, limits)).toHaveLength(5)
    expect(fits.requested).toEqual([undefined, 'c1', 'c2', 'c3', 'c4'])
    const over = pages(...chain(6))
    const error = await drainToolPages(over.list, limits).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'INVALID_TOOL_LIST', message: 'tools/list pagination exceeded limits.maxPages (5)' })
    expect(over.requested).toEqual([undefined, 'c1', 'c2', 'c3', 'c4'])
  })

  it('takes exactly maxTools tools, and names the limit when one more is listed', async () => {
    const listed = Array.from({ length: 100 }, (_, i) => tool(`t${i}`))
    expect(await drainToolPages(pages({ tools: listed }).list, limits)).toHaveLength(100)
    const split = pages({ tools: listed.slice(0, 60), nextCursor: 'p2' }, { tools: listed.slice(60) })
    expect(await drainToolPages(split.list, limits)).toHaveLength(100)
    const over = pages({ tools: listed.slice(0, 60), nextCursor: 'p2' }, { tools: listed.slice(0, 41) })
    const refused = await drainToolPages(over.list, limits).catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: 'INVALID_TOOL_LIST', message: 'server lists more than limits.maxTools (100) tools' })
  })

  it('refuses a cursor that comes back after another one (not only twice in a row), quoting at most 80 characters of it', async () => {
    const long = 'x'.repeat(200)
    const server = pages({ tools: [], nextCursor: long }, { tools: [], nextCursor: 'other' }, { tools: [], nextCursor: long }, { tools: [] })
    const error = await drainToolPages(server.list, limits).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'INVALID_TOOL_LIST', message: `tools/list returned cursor "${'x'.repeat(80)}" twice: the pagination never ends` })
    expect(server.requested).toEqual([undefined, long, 'other'])
  })

  it('refuses a page whose tools is not an array, as an invalid tool list', async () => {
    for (const tools of [undefined, { 0: tool('a') }, 'a']) {
      const error = await drainToolPages(pages({ tools: tools as unknown as unknown[] }).list, limits).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'INVALID_TOOL_LIST', message: 'tools/list result has no "tools" array' })
    }
  })
})

describe('planTools: each bound and each reason', () => {
  const big = { maxDescriptionChars: 20, maxSchemaChars: 10_000 }

  it('takes raw names of 1 to 1024 characters; quarantines an empty or longer one under its first 80 characters', () => {
    const longest = 'n'.repeat(1024)
    const plan = planTools('srv', [tool(longest), tool(''), tool('m'.repeat(1025))], big)
    expect(plan.tools.map((t) => t.rawName)).toEqual([longest])
    expect(plan.quarantined).toEqual([
      { name: '', reason: 'name must be a string of 1-1024 characters' },
      { name: 'm'.repeat(80), reason: 'name must be a string of 1-1024 characters' },
    ])
  })

  it('refuses a list where two raw names map to one public name, naming both', () => {
    // "x." is sanitised and hashed into mcp__srv__x__<hash>; a clean raw name "x__<hash>" is that same name.
    const hashed = publicToolName('srv', 'x.')
    const clean = hashed.slice('mcp__srv__'.length)
    expect(publicToolName('srv', clean)).toBe(hashed)
    const error = (() => {
      try {
        return planTools('srv', [tool('x.'), tool(clean)], big)
      } catch (e) {
        return e
      }
    })()
    expect(error).toMatchObject({ name: 'BridgeError', code: 'INVALID_TOOL_LIST', message: `tools "x." and "${clean}" map to the same public name ${hashed}` })
  })

  it('a raw name listed twice is an invalid tool list (BridgeError INVALID_TOOL_LIST)', () => {
    expect(() => planTools('srv', [tool('dup'), tool('other'), tool('dup')], big)).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL_LIST', message: 'server listed tool "dup" more than once: invalid tool list' }),
    )
  })

  it('keeps a description of exactly the limit whole, and a non-string one becomes empty', () => {
    const plan = planTools('srv', [tool('exact', { description: 'e'.repeat(20) }), tool('over', { description: 'o'.repeat(21) }), tool('number', { description: 7 })], big)
    expect(plan.tools.map((t) => t.description)).toEqual(['e'.repeat(20), `${'o'.repeat(20)}… [description truncated from 21 characters]`, ''])
  })

  it('builds a plain tool with no outputSchema or asTask key; an object outputSchema is kept, any other value dropped', () => {
    const plan = planTools('srv', [tool('plain'), tool('typed', { outputSchema: { type: 'object' } }), tool('listy', { outputSchema: [{ type: 'object' }] }), tool('nully', { outputSchema: null })], big)
    const [plain, typed, listy, nully] = plan.tools
    expect(plain).toStrictEqual({ rawName: 'plain', publicName: 'mcp__srv__plain', description: '', inputSchema: { type: 'object' } })
    expect(typed?.outputSchema).toEqual({ type: 'object' })
    expect(listy).not.toHaveProperty('outputSchema')
    expect(nully).not.toHaveProperty('outputSchema')
    expect(toolSignature(listy!)).toBe(toolSignature(plain!))
  })

  it('quarantines each broken schema with its own reason', () => {
    const plan = planTools(
      'srv',
      [
        { name: 'none' },
        tool('array', { inputSchema: [{ type: 'object' }] }),
        tool('null', { inputSchema: null }),
        tool('string', { inputSchema: 'object' }),
        tool('untyped', { inputSchema: { properties: {} } }),
        tool('exact', { inputSchema: { type: 'object', description: 'x'.repeat(200 - 34) } }),
        tool('over', { inputSchema: { type: 'object', description: 'x'.repeat(200 - 33) } }),
      ],
      limits,
    )
    expect(JSON.stringify({ type: 'object', description: 'x'.repeat(200 - 34) })).toHaveLength(200)
    expect(plan.tools.map((t) => t.rawName)).toEqual(['exact'])
    expect(plan.quarantined).toEqual([
      { name: 'none', reason: 'inputSchema is missing or not an object' },
      { name: 'array', reason: 'inputSchema is missing or not an object' },
      { name: 'null', reason: 'inputSchema is missing or not an object' },
      { name: 'string', reason: 'inputSchema is missing or not an object' },
      { name: 'untyped', reason: 'inputSchema must have type "object"' },
      { name: 'over', reason: 'inputSchema is 201 characters, over limits.maxSchemaChars (200)' },
    ])
  })

  it('quarantines a schema that is not JSON Schema, quoting at most 300 characters of the problem', () => {
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'no-such-type' }]))
    const plan = planTools('srv', [tool('bogus', { inputSchema: { type: 'object', properties } })], big)
    expect(plan.tools).toEqual([])
    const reason = plan.quarantined[0]!.reason
    expect(reason.startsWith('inputSchema is not valid JSON Schema: inputSchema/properties/p0/type must be equal to one of the allowed values')).toBe(true)
    expect(reason).toHaveLength('inputSchema is not valid JSON Schema: '.length + 300)
  })

  it('quarantines a schema whose $ref names another document: it could never compile, so every call would be refused', () => {
    const remote = { type: 'object', properties: { a: { $ref: 'https://example.com/schemas/a.json' } } }
    const local = { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } }
    const plan = planTools('srv', [tool('remoteRef', { inputSchema: remote }), tool('localRef', { inputSchema: local })], big)
    expect(plan.tools.map((t) => t.rawName)).toEqual(['localRef'])
    expect(plan.quarantined).toEqual([
      {
        name: 'remoteRef',
        reason: "inputSchema is not valid JSON Schema: it refers to another document ($ref), and schemas are never fetched: can't resolve reference https://example.com/schemas/a.json from id #",
      },
    ])
  })

  it('an entry that is not an object is quarantined under its name as text', () => {
    const plan = planTools('srv', [null, [tool('inside')], 5], big)
    expect(plan.tools).toEqual([])
    expect(plan.quarantined.map((q) => q.name)).toEqual(['undefined', 'undefined', 'undefined'])
  })

  it('without the server capability no tool is a task, not even an optional one with preferTaskCalls', () => {
    const plan = planTools('srv', [tool('optional', { execution: { taskSupport: 'optional' } }), tool('forbidden', { execution: { taskSupport: 'forbidden' } })], big, { serverSupportsTasks: false, preferTaskCalls: true })
    expect(plan.tools.map((t) => [t.rawName, 'asTask' in t])).toEqual([
      ['optional', false],
      ['forbidden', false],
    ])
    const served = planTools('srv', [tool('optional', { execution: { taskSupport: 'optional' } }), tool('forbidden', { execution: { taskSupport: 'forbidden' } }), tool('odd', { execution: 'required' })], big, { serverSupportsTasks: true, preferTaskCalls: true })
    expect(served.tools.map((t) => [t.rawName, t.asTask])).toEqual([
      ['optional', true],
      ['forbidden', undefined],
      ['odd', undefined],
    ])
  })

  it('the signature changes with the description, the input schema, the output schema and task-ness, and with nothing else', () => {
    const base = { description: 'd', inputSchema: { type: 'object' } }
    const signature = (extra: Record<string, unknown>, tasks?: { serverSupportsTasks: boolean; preferTaskCalls: boolean }) => toolSignature(planTools('srv', [{ name: 'a', ...base, ...extra }], big, tasks).tools[0]!)
    const plain = signature({})
    expect(plain).toBe('d\0{"type":"object"}\0')
    expect(signature({ name: 'b' })).toBe(plain)
    expect(signature({ description: 'e' })).not.toBe(plain)
    expect(signature({ inputSchema: { type: 'object', properties: {} } })).not.toBe(plain)
    expect(signature({ outputSchema: { type: 'object' } })).toBe('d\0{"type":"object"}\0{"type":"object"}')
    expect(signature({ execution: { taskSupport: 'required' } }, { serverSupportsTasks: true, preferTaskCalls: false })).toBe('d\0{"type":"object"}\0\0task')
  })
})

describe('declaresToolTasks', () => {
  it('is true only for an object at capabilities.tasks.requests.tools.call', () => {
    expect(declaresToolTasks({ tasks: { requests: { tools: { call: {} } } } })).toBe(true)
    for (const capabilities of [
      undefined,
      null,
      [],
      {},
      { tasks: true },
      { tasks: [] },
      { tasks: {} },
      { tasks: { requests: null } },
      { tasks: { requests: [] } },
      { tasks: { requests: {} } },
      { tasks: { requests: { tools: 'call' } } },
      { tasks: { requests: { tools: [{}] } } },
      { tasks: { requests: { tools: {} } } },
      { tasks: { requests: { tools: { call: true } } } },
      { tasks: { requests: { tools: { call: null } } } },
      { tasks: { requests: { tools: { call: [] } } } },
      { tasks: { requests: { tools: { list: {} } } } },
    ]) {
      expect(declaresToolTasks(capabilities), JSON.stringify(capabilities)).toBe(false)
    }
  })
})
