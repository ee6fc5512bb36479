import { Context, Service } from 'cordis'
import { describe, expect, it } from 'vitest'
import * as bridge from '../src/index.ts'
import type { McpStateEvent } from '../src/index.ts'
import { ConnectionStatus, createHost, ToolRegistry } from '@mcp-bridge/host'
import { afterTest } from './support/cleanup.ts'
import { rawServerScript } from './support/raw-server.ts'

/**
 * Hosts and the kit follow a bridge instance through public Cordis API only: the `mcp/state`
 * event (and the ConnectionStatus service built on it), never a module-level map walked by
 * prototype; and the reference registry leaves Cordis' own tracker as Cordis made it.
 */
describe('the mcp/state event', () => {
  it('tells every state of an instance, with the live child pid, from connecting to disposed', async () => {
    const ctx = new Context()
    const events: McpStateEvent[] = []
    // Listened to the way any host would: before the instance starts, on its own context.
    ctx.on('mcp/state', (event) => void events.push(event))
    await ctx.plugin(ToolRegistry)
    await ctx.plugin(ConnectionStatus)
    const fiber = ctx.plugin(bridge, {
      serverName: 'raw',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', rawServerScript()],
      killGraceMs: 100,
      reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 2 },
    })
    afterTest(fiber, (f) => f.dispose())
    await fiber
    const connected = events.at(-1)
    expect(connected).toMatchObject({ serverName: 'raw', state: { kind: 'connected', server: 'raw 1' }, pid: expect.any(Number) })
    // The child dies mid-call: the instance says so, without a pid, then reconnects to a new child.
    await ctx.tools.execute(bridge.publicToolName('raw', 'die'), {})
    await expect.poll(() => events.at(-1)?.state.kind).toBe('connected')
    const reconnected = events.at(-1)!
    expect(reconnected.pid).toEqual(expect.any(Number))
    expect(reconnected.pid).not.toBe(connected!.pid)
    expect((ctx.get('mcpStatus') as ConnectionStatus).get('raw')).toEqual(reconnected)
    await fiber.dispose()
    expect(events.map((event) => [event.state.kind, event.pid === undefined ? 'no pid' : 'pid'])).toEqual([
      ['connecting', 'no pid'],
      ['connected', 'pid'],
      ['reconnecting', 'no pid'],
      ['connected', 'pid'],
      ['disposed', 'no pid'],
    ])
  })

  it("createHost() offers the states as its status service", async () => {
    const host = await createHost({ logging: false, signals: false })
    afterTest(host, (h) => h.dispose())
    const fiber = host.ctx.plugin(bridge, { serverName: 'mute', transport: 'streamable-http', url: 'http://127.0.0.1:9/mcp', connectTimeoutMs: 200, reconnect: { enabled: false } })
    await fiber
    expect(host.status.get('mute')?.state).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/reconnect is disabled/) })
    expect(host.status.list().map((event) => event.serverName)).toEqual(['mute'])
    await fiber.dispose()
  })
})

describe('the reference registry and Cordis internals', () => {
  it('leaves the tracker Cordis gave the service as it was (no noShadow written)', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRegistry)
    const registry = ctx.get('tools') as unknown as Record<symbol, unknown>
    expect(registry[Service.tracker]).toEqual({ associate: 'tools', property: 'ctx' })
  })
})
