import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { ToolRegistry } from '@mcp-bridge/host'
import type { ToolDefinition } from '../src/index.ts'
import { ToolSet, type GenerationEntry } from '../src/tool-set.ts'

async function setup(batch = true) {
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  const built: string[] = []
  const entry = (name: string, version = 1): GenerationEntry => ({
    name,
    signature: `${name}@${version}`,
    create: (): ToolDefinition => {
      built.push(`${name}@${version}`)
      return { name, description: `v${version}`, parameters: { type: 'object' }, execute: async () => version }
    },
  })
  // Hosts without registerMany get the same all-or-nothing swap, one register() at a time.
  const registry = batch ? ctx.tools : { register: (definition: ToolDefinition) => ctx.tools.register(definition) }
  return { ctx, built, entry, set: new ToolSet(registry) }
}

describe.each([
  ['with registerMany', true],
  ['with register only', false],
])('ToolSet %s', (_label, batch) => {
  it('re-registers only the tools that changed, keeping the others in place', async () => {
    const { ctx, built, entry, set } = await setup(batch)
    set.swap([entry('a'), entry('b'), entry('c')])
    const before = ctx.tools.get('a')
    set.swap([entry('a'), entry('b', 2), entry('d')])
    expect(built).toEqual(['a@1', 'b@1', 'c@1', 'b@2', 'd@1'])
    expect(ctx.tools.get('a')).toBe(before)
    expect(ctx.tools.get('b')?.description).toBe('v2')
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['a', 'b', 'd'])
  })

  it('restores the previous generation when a name is taken, then reports', async () => {
    const { ctx, entry, set } = await setup(batch)
    set.swap([entry('a'), entry('b')])
    ctx.tools.register({ name: 'taken', description: 'foreign', parameters: { type: 'object' }, execute: async () => 0 })
    expect(() => set.swap([entry('a'), entry('b', 2), entry('new'), entry('taken')])).toThrow(/kept the previous 2 tools: tool "taken" is already registered/)
    expect(ctx.tools.list().map((t) => `${t.name}:${t.description}`)).toEqual(['a:v1', 'b:v1', 'taken:foreign'])
    set.clear()
    expect(ctx.tools.list().map((t) => t.name)).toEqual(['taken'])
  })
})

describe('ToolSet with definitions that tell their own signature', () => {
  it('asks each registered definition and each entry of the same name for its signature at the next swap, and nothing else', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRegistry)
    const asked: string[] = []
    // As the bridge's definitions do (definition.ts): the signature is recomputed on demand.
    const definition = (name: string, version: number): ToolDefinition =>
      Object.defineProperty({ name, description: `v${version}`, parameters: { type: 'object' }, execute: async () => version }, 'signature', {
        get: () => (asked.push(name), `${name}@${version}`),
      })
    // And as the bridge's entries do (PlannedTool): computed when read.
    const entry = (name: string, version = 1): GenerationEntry =>
      Object.defineProperty({ name, create: () => definition(name, version) }, 'signature', {
        get: () => (asked.push(`entry ${name}`), `${name}@${version}`),
      }) as GenerationEntry
    const set = new ToolSet(ctx.tools)
    set.swap([entry('a'), entry('b')])
    // A first swap and registering ask nothing: a signature is only compared with a registered one.
    expect(asked).toEqual([])
    const before = ctx.tools.get('a')
    set.swap([entry('a'), entry('b', 2), entry('c')])
    expect(asked.sort()).toEqual(['a', 'b', 'entry a', 'entry b'])
    expect(ctx.tools.get('a')).toBe(before)
    expect(ctx.tools.get('b')?.description).toBe('v2')
  })
})

/** A registry whose disposers each end one registration (not "whatever has this name"), as a host's may. */
function ticketRegistry(options: { batch: boolean; refuse?: string }) {
  const live = new Map<number, string>()
  const calls: string[] = []
  let next = 0
  const add = (definition: ToolDefinition) => {
    if (definition.name === options.refuse || [...live.values()].includes(definition.name)) throw new Error(`tool "${definition.name}" is already registered`)
    const ticket = next++
    live.set(ticket, definition.name)
    return () => void live.delete(ticket)
  }
  const register = (definition: ToolDefinition) => {
    calls.push(`register ${definition.name}`)
    return add(definition)
  }
  const registerMany = (definitions: ToolDefinition[]) => {
    calls.push(`registerMany ${definitions.map((d) => d.name).join(',')}`)
    for (const definition of definitions) if (definition.name === options.refuse) throw new Error(`tool "${definition.name}" is already registered`)
    return definitions.map(add)
  }
  return { live, calls, registry: options.batch ? { register, registerMany } : { register } }
}

const plain = (name: string, version = 1): GenerationEntry => ({
  name,
  signature: `${name}@${version}`,
  create: () => ({ name, description: `v${version}`, parameters: { type: 'object' }, execute: async () => version }),
})

describe('ToolSet and its registry', () => {
  it("uses the registry's registerMany, one batch per swap, when it has one", () => {
    const { calls, registry } = ticketRegistry({ batch: true })
    new ToolSet(registry).swap([plain('a'), plain('b')])
    expect(calls).toEqual(['registerMany a,b'])
  })

  it('reports a refused swap as NAME_CONFLICT, with the registry error as its cause', () => {
    const { registry } = ticketRegistry({ batch: true, refuse: 'taken' })
    const set = new ToolSet(registry)
    set.swap([plain('a')])
    let thrown: unknown
    try {
      set.swap([plain('a', 2), plain('taken')])
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ name: 'BridgeError', code: 'NAME_CONFLICT', message: 'tool registration failed, kept the previous 1 tools: tool "taken" is already registered' })
    expect((thrown as Error).cause).toEqual(new Error('tool "taken" is already registered'))
  })

  it.each([true, false])('disposes the restored tools through their new registrations after a refused swap (registerMany: %s)', (batch) => {
    const { live, registry } = ticketRegistry({ batch, refuse: 'taken' })
    const set = new ToolSet(registry)
    set.swap([plain('a'), plain('b')])
    expect(() => set.swap([plain('a'), plain('b', 2), plain('taken')])).toThrow(/kept the previous 2 tools/)
    expect([...live.values()].sort()).toEqual(['a', 'b'])
    set.clear()
    expect([...live.values()]).toEqual([])
  })

  it('registers everything anew after clear()', () => {
    const { live, registry } = ticketRegistry({ batch: true })
    const set = new ToolSet(registry)
    set.swap([plain('a'), plain('b')])
    set.clear()
    expect([...live.values()]).toEqual([])
    set.swap([plain('a'), plain('b')])
    expect([...live.values()].sort()).toEqual(['a', 'b'])
  })
})
