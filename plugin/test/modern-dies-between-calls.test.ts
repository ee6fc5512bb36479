import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { pidOf, startHost, stateOf } from './support/host.ts'

/**
 * A modern-only server (MCP 2026-07-28, the SDK's v2 server over stdio) that dies while no call is
 * in flight: the connection notices the exit on its own, as it does for a legacy child (the loss
 * is logged, a new child is spawned, the tools come back), with no call needed to find out. Over
 * HTTP a 2026-07-28 server has no session and no standing stream to lose: the next request finds
 * it gone and fails as a lost connection, which starts the reconnect (modern-http-server-dies).
 */
const fixture = fileURLToPath(new URL('./support/v2-server.mjs', import.meta.url))

describe('a modern stdio server that dies between calls', () => {
  it('is noticed without a call, respawned, and spoken to at 2026-07-28 again', async () => {
    const host = await startHost()
    const fiber = await host.load({
      transport: 'stdio',
      serverName: 'twin',
      command: process.execPath,
      args: [fixture, 'stdio', 'reject'],
      killGraceMs: 200,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100, maxAttempts: 5 },
    })
    expect(await host.tools.execute('mcp__twin__echo', { text: 'one' })).toMatchObject({ content: [{ text: 'echo: one' }] })
    const first = pidOf(fiber)
    process.kill(first, 'SIGKILL')
    // No call: only the connection's own watch can find the exit.
    await expect.poll(() => host.logs.some((line) => /connection lost/.test(line)), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => stateOf(fiber)?.kind === 'connected' && pidOf(fiber) !== first, { timeout: 20_000, interval: 20 }).toBe(true)
    expect(await host.tools.execute('mcp__twin__echo', { text: 'two' })).toMatchObject({ content: [{ text: 'echo: two' }] })
  })
})
