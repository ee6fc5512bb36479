import { Context } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { ToolRegistry } from '../src/index.ts'
import type { ToolDefinition } from '@mcp-bridge/plugin'
import { MAX_VIOLATION_CHARS, MAX_VIOLATIONS } from '@mcp-bridge/process'
import { startHost } from '../../plugin/test/support/host.ts'

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

  it('never rejects: whatever throws in validation, execute, render, a policy or finalizeContent, the call settles with a ToolResult', async () => {
    const ctx = await registry()
    const boom = () => {
      throw new Error('kaput')
    }
    ctx.tools.register(echo('selfref', { parameters: { type: 'object', $ref: '#' } }))
    // A host's own definition object, whose schema getter throws.
    ctx.tools.register(Object.defineProperty(echo('getter'), 'parameters', { get: () => boom() }))
    ctx.tools.register(echo('sync_throw', { execute: boom }))
    ctx.tools.register(echo('render_throws', { output: { render: boom } }))
    ctx.tools.register(echo('finalize_throws', { finalizeContent: boom }))
    ctx.tools.register(echo('odd_throw', { execute: () => Promise.reject(Object.create(null)) }))
    const call = (name: string) => ctx.tools.execute(name, { text: 'hi' })
    expect(await call('selfref')).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS', message: 'invalid arguments for "selfref": (root) could not be checked: the schema recurses without end (or the value is nested too deep to check)' } })
    expect(await call('getter')).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS', message: 'arguments for "getter" could not be checked: kaput' } })
    expect(await call('sync_throw')).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: 'sync_throw failed: kaput' } })
    expect(await call('render_throws')).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: 'render_throws failed: kaput' } })
    // finalizeContent is an optional richer projection: the result stands with its plain content.
    expect(await call('finalize_throws')).toEqual({ isError: false, value: 'hi', content: [{ type: 'text', text: 'hi' }] })
    expect(await call('odd_throw')).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: 'odd_throw failed: a value that cannot be shown' } })
    // A policy may be a redaction: one that throws fails the call rather than being skipped.
    ctx.tools.onPostExecute(boom)
    expect(await call('sync_throw')).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: 'sync_throw: a post-execute policy failed: kaput' } })
  })

  it('bounds the INVALID_ARGS message however large and wrong the arguments are', async () => {
    const ctx = await registry()
    ctx.tools.register(echo('strings', { parameters: { type: 'object', additionalProperties: { type: 'string' } } }))
    const args = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`${i}`.padStart(1_000, 'k'), i]))
    const result = await ctx.tools.execute('strings', args)
    expect(result).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS' } })
    const message = result.isError ? result.error.message : ''
    expect(message.length).toBeLessThan((MAX_VIOLATIONS + 1) * (MAX_VIOLATION_CHARS + 2) + 100)
    expect(message).toMatch(new RegExp(`; and ${10_000 - MAX_VIOLATIONS} more$`))
  })

  it('runs a tool whose pattern the linear engine cannot run, with that pattern unchecked and one warning naming it', async () => {
    const host = await startHost()
    let ran = 0
    const parameters = { type: 'object', properties: { code: { type: 'string', pattern: '^(?=.*\\d).+$' }, n: { type: 'integer' } } }
    host.ctx.tools.register({ name: 'lookahead', description: '', parameters, execute: async () => ++ran })
    expect(await host.tools.execute('lookahead', { code: 'no digits' })).toMatchObject({ isError: false, value: 1 })
    expect(await host.tools.execute('lookahead', { code: 'x', n: 1.5 })).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS', message: 'invalid arguments for "lookahead": /n must be integer' } })
    const warnings = host.logs.filter((line) => line.includes('left unchecked'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('tool "lookahead": its parameters schema: pattern "^(?=.*\\\\d).+$" left unchecked')
  })
})
