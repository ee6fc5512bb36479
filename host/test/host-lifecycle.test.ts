import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fixtureCommand, type BehaviourInput } from '@mcp-bridge/fixtures-server'
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
// The plugin module the shared test host (plugin/test/support/host.ts) loads: a second instance of
// it would keep a serverName registry of its own.
import * as bridge from '../../plugin/src/index.ts'
import { ToolRegistry } from '../src/index.ts'
import { afterTest, tempDir } from '../../plugin/test/support/cleanup.ts'
import { startHost } from '../../plugin/test/support/host.ts'
import { isRunning } from '../../test/support/process-tree.ts'

/**
 * The plugin in hosts other than the reference one, and through the lifecycle events a host
 * drives: a tools service with only the documented minimum, isolated tools services, and calls
 * that an unload ends.
 */
const GRACE_MS = 1_000
const SPAWN_WAIT = { timeout: 15_000 }

function stdio(serverName: string, behaviour: BehaviourInput, extra: Record<string, unknown> = {}) {
  return { transport: 'stdio', serverName, ...fixtureCommand(behaviour), killGraceMs: GRACE_MS, ...extra }
}

/** A root that is disposed after the test, whatever it holds. */
function root(): Context {
  const ctx = new Context()
  return afterTest(ctx, (done) => done.fiber.dispose())
}

describe('a host whose tools service has only the documented minimum (register, returning a disposer)', () => {
  it('unlists the tools as soon as dispose begins, while the child is still given its grace to exit', async () => {
    const ctx = root()
    const listed = new Set<string>()
    ctx.provide('tools', {
      register(definition: { name: string }) {
        listed.add(definition.name)
        return () => listed.delete(definition.name)
      },
    })
    let pid: number | undefined
    ctx.on('mcp/state' as never, ((event: { pid?: number }) => (pid = event.pid ?? pid)) as never)
    // It ignores EOF: the child outlives the first grace period of the shutdown.
    const fiber = ctx.plugin(bridge, stdio('min', { tools: [{ name: 'one' }], stdio: { ignoreEof: true } }))
    await fiber
    expect([...listed]).toEqual(['mcp__min__one'])
    const disposing = fiber.dispose()
    await expect.poll(() => listed.size).toBe(0)
    expect(pid !== undefined && isRunning(pid)).toBe(true)
    await disposing
    expect(pid !== undefined && isRunning(pid)).toBe(false)
  })
})

describe('isolated tools services', () => {
  it('each may have its own server of the same name: public names can only collide on one service', async () => {
    const ctx = root()
    const first = ctx.isolate('tools')
    const second = ctx.isolate('tools')
    await first.plugin(ToolRegistry)
    await second.plugin(ToolRegistry)
    await Promise.all([first.plugin(bridge, stdio('github', { tools: [{ name: 'a' }] })), second.plugin(bridge, stdio('github', { tools: [{ name: 'b' }] }))])
    expect((first.tools as ToolRegistry).list().map((tool) => tool.name)).toEqual(['mcp__github__a'])
    expect((second.tools as ToolRegistry).list().map((tool) => tool.name)).toEqual(['mcp__github__b'])
  })
})

describe('a serverName handed from one instance to the next', () => {
  it('is free as soon as the old instance begins to stop, though its child takes a grace period to exit (a loader that replaces entries all at once)', async () => {
    const host = await startHost()
    const dir = tempDir('bridge-handover-')
    // Still starting, and deaf to EOF: its stop takes one grace period.
    const old = host.ctx.plugin(bridge, stdio('same', { tools: [{ name: 'old' }], crash: { hangOn: ['initialize'] }, stdio: { ignoreEof: true } }, { env: { MCP_FIXTURE_WIRE: join(dir, 'old.jsonl') }, connectTimeoutMs: 20_000 }))
    await expect.poll(() => { try { return readFileSync(join(dir, 'old.jsonl'), 'utf8').includes('"method":"initialize"') } catch { return false } }, SPAWN_WAIT).toBe(true)
    const stopping = old.dispose()
    const next = host.ctx.plugin(bridge, stdio('same', { tools: [{ name: 'fresh' }] }))
    await next
    expect(next.state).toBe(2) // ACTIVE, not failed with "already used"
    expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__same__fresh'])
    await stopping
    expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__same__fresh'])
  })

  it('still refuses a second live instance with the same name on the same service', async () => {
    const host = await startHost()
    await host.load(stdio('twice', { tools: [{ name: 'a' }] }))
    const second = host.ctx.plugin(bridge, stdio('twice', { tools: [{ name: 'b' }] }))
    await second.then(undefined, () => {})
    expect(host.logs.join('\n')).toMatch(/serverName "twice" is already used by another mcp-client instance/)
    expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__twice__a'])
  })
})

describe('calls in flight when the instance is unloaded', () => {
  it('fail saying the server was unloaded, not that a lost connection is being re-established', async () => {
    const host = await startHost()
    const wire = join(tempDir('bridge-unload-'), 'wire.jsonl')
    const fiber = await host.load(stdio('slow', { tools: [{ name: 'wait', hang: true }] }, { env: { MCP_FIXTURE_WIRE: wire } }))
    const call = host.tools.execute('mcp__slow__wait', {})
    await expect.poll(() => readFileSync(wire, 'utf8').includes('"method":"tools/call"'), SPAWN_WAIT).toBe(true)
    await fiber.dispose()
    const result = await call
    expect(result).toMatchObject({ isError: true, error: { code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/MCP server "slow" has been unloaded; the call to wait was ended/) } })
    expect(result.isError && result.error.message).not.toMatch(/re-established/)
  })
})
