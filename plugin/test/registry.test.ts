import { Context } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { ToolRegistry } from '../src/host/index.ts'
import type { ToolDefinition } from '../src/index.ts'

let root: Context | undefined
afterEach(() => {
  root = undefined
})

async function registry() {
  root = new Context()
  await root.plugin(ToolRegistry)
  // The reference registry, with its extras beyond the plugin's `ToolsService` contract.
  return root as Context & { tools: ToolRegistry }
}

const echo = (name = 'echo', overrides: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: 'echoes',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: async (args) => (args as { text: string }).text,
  ...overrides,
})

describe('ToolRegistry', () => {
  it('registers, lists sorted, gets, and disposes', async () => {
    const ctx = await registry()
    const dispose = ctx.tools.register(echo('b'))
    ctx.tools.register(echo('a'))
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['a', 'b'])
    expect(ctx.tools.get('b')?.description).toBe('echoes')
    dispose()
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['a'])
  })

  it('throws when a name is already taken or invalid', async () => {
    const ctx = await registry()
    ctx.tools.register(echo('taken'))
    expect(() => ctx.tools.register(echo('taken'))).toThrow(/already registered/)
    expect(() => ctx.tools.register(echo('has.dot'))).toThrow(/invalid/)
    expect(() => ctx.tools.register(echo('x'.repeat(65)))).toThrow(/invalid/)
  })

  it('registers a batch all or nothing', async () => {
    const ctx = await registry()
    ctx.tools.register(echo('taken'))
    expect(() => ctx.tools.registerMany([echo('one'), echo('taken'), echo('two')])).toThrow(/"taken" is already registered/)
    expect(() => ctx.tools.registerMany([echo('dup'), echo('dup')])).toThrow(/"dup" is already registered/)
    expect(() => ctx.tools.registerMany([echo('fine'), echo('not valid')])).toThrow(/"not valid" is invalid/)
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['taken'])
    expect(ctx.tools.get('one') ?? ctx.tools.get('dup') ?? ctx.tools.get('fine')).toBeUndefined()
    const [disposeOne] = ctx.tools.registerMany([echo('one'), echo('two')])
    disposeOne!()
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['taken', 'two'])
  })

  it('removes a plugin’s tools when that plugin is disposed, and only those', async () => {
    const ctx = await registry()
    const a = ctx.plugin({ inject: ['tools'], apply: (c: Context) => void c.tools.register(echo('from_a')) })
    const b = ctx.plugin({ inject: ['tools'], apply: (c: Context) => void c.tools.register(echo('from_b')) })
    await a
    await b
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['from_a', 'from_b'])
    await a.dispose()
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['from_b'])
  })

  it('a batch from a plugin that is no longer active is refused whole, leaving nothing behind', async () => {
    const ctx = await registry()
    let tools: ToolRegistry | undefined
    const late = ctx.plugin({ inject: ['tools'], apply: (c: Context) => void (tools = c.tools as ToolRegistry) })
    await late
    await late.dispose()
    expect(() => tools!.registerMany([echo('late_a'), echo('late_b')])).toThrow()
    expect(ctx.tools.list()).toEqual([])
    // The names are free: nothing half-registered holds them.
    ctx.tools.registerMany([echo('late_a'), echo('late_b')])
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['late_a', 'late_b'])
  })

  it('executes with argument validation and stable error codes', async () => {
    const ctx = await registry()
    ctx.tools.register(echo())
    expect(await ctx.tools.execute('echo', { text: 'hi' })).toEqual({ isError: false, value: 'hi', content: [{ type: 'text', text: 'hi' }] })
    const unknown = await ctx.tools.execute('nope', {})
    expect(unknown).toMatchObject({ isError: true, error: { code: 'UNKNOWN_TOOL', message: 'unknown tool "nope"' } })
    const invalid = await ctx.tools.execute('echo', { text: 3 })
    expect(invalid).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS' } })
    expect(invalid.isError && invalid.error.message).toMatch(/\/text must be string/)
  })

  it('turns a thrown tool error into an error result that says what failed', async () => {
    const ctx = await registry()
    ctx.tools.register(echo('boom', { execute: async () => Promise.reject(new Error('disk full')) }))
    const result = await ctx.tools.execute('boom', { text: '' })
    expect(result).toEqual({
      isError: true,
      error: { code: 'TOOL_ERROR', message: 'boom failed: disk full' },
      content: [{ type: 'text', text: 'Error: boom failed: disk full' }],
    })
  })

  it('releases the caller on abort even when the tool ignores the signal', async () => {
    const ctx = await registry()
    ctx.tools.register(echo('stuck', { execute: () => new Promise(() => {}) }))
    const controller = new AbortController()
    const pending = ctx.tools.execute('stuck', { text: '' }, { signal: controller.signal })
    controller.abort(new Error('user pressed stop'))
    expect(await pending).toMatchObject({ isError: true, error: { code: 'ABORTED' } })
    const pre = await ctx.tools.execute('stuck', { text: '' }, { signal: controller.signal })
    expect(pre).toMatchObject({ isError: true, error: { code: 'ABORTED' } })
  })

  it('applies finalizeContent unless a post-execute policy replaced the result', async () => {
    const ctx = await registry()
    const finalizeContent: ToolDefinition['finalizeContent'] = (_exec, result) =>
      !result.isError && result.value === 'raw' ? [{ type: 'text', text: 'rich' }] : undefined
    ctx.tools.register(echo('rich', { execute: async () => 'raw', finalizeContent }))
    expect((await ctx.tools.execute('rich', { text: '' })).content).toEqual([{ type: 'text', text: 'rich' }])
    ctx.tools.onPostExecute((_exec, result) => (result.isError ? undefined : { ...result, value: 'redacted', content: [{ type: 'text', text: 'policy' }] }))
    expect((await ctx.tools.execute('rich', { text: '' })).content).toEqual([{ type: 'text', text: 'policy' }])
  })

  it('announces changes once per synchronous batch', async () => {
    const ctx = await registry()
    const seen: string[][] = []
    ctx.on('tools/change', (names) => void seen.push(names))
    ctx.tools.register(echo('one'))
    ctx.tools.register(echo('two'))
    await Promise.resolve()
    expect(seen).toEqual([['one', 'two']])
  })
})
