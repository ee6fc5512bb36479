import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempDir } from './support/cleanup.ts'
import { pidOf, startHost, stateOf } from './support/host.ts'

/**
 * The era a server speaks is found out once per connection instance and kept across reconnects
 * ("Clients SHOULD cache the era determination per server", MCP 2026-07-28 basic/lifecycle,
 * Backward Compatibility): once the first child was found modern (by the probe, or by refusing
 * initialize when it was slower to start than the probe's wait), the replacement child of a crash
 * is spoken to at 2026-07-28 straight away, with the DiscoverResult already learned, so it is sent
 * neither initialize nor server/discover. Counted on the server
 * side: every child of the test appends what it reads to one log.
 */
const fixture = fileURLToPath(new URL('./support/v2-server.mjs', import.meta.url))

function methods(log: string): string[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { method?: string }).method ?? '(answer)')
}

const count = (log: string, method: string) => methods(log).filter((m) => m === method).length

describe('the era is cached for the life of the connection', () => {
  it('a modern-only stdio server is probed once; its replacement after a crash is not', async () => {
    const log = join(tempDir('bridge-era-'), 'read.log')
    const host = await startHost()
    const fiber = await host.load({
      transport: 'stdio',
      serverName: 'twin',
      command: process.execPath,
      args: [fixture, 'stdio', 'reject', log],
      killGraceMs: 200,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100, maxAttempts: 3 },
    })
    expect(await host.tools.execute('mcp__twin__echo', { text: 'one' })).toMatchObject({ content: [{ text: 'echo: one' }] })
    const first = pidOf(fiber)
    // Probed first; a child slower to start than the probe's wait also refused initialize once.
    const asked = [count(log, 'initialize'), count(log, 'server/discover')]
    expect(asked[1]).toBeGreaterThanOrEqual(1)

    process.kill(first, 'SIGKILL')
    await expect.poll(() => stateOf(fiber)?.kind === 'connected' && pidOf(fiber) !== first, { timeout: 20_000, interval: 20 }).toBe(true)
    expect(await host.tools.execute('mcp__twin__echo', { text: 'two' })).toMatchObject({ content: [{ text: 'echo: two' }] })

    // Two children listed tools and answered calls; only the first was asked which era it speaks.
    expect(count(log, 'tools/list')).toBe(2)
    expect([count(log, 'initialize'), count(log, 'server/discover')]).toEqual(asked)
  })

  it('an era that no longer holds is found out again: a modern server replaced by a legacy one', async () => {
    const dir = tempDir('bridge-era-')
    const modeFile = join(dir, 'mode')
    const log = join(dir, 'read.log')
    writeFileSync(modeFile, 'reject')
    const host = await startHost()
    const fiber = await host.load({
      transport: 'stdio',
      serverName: 'twin',
      command: process.execPath,
      args: [fixture, 'stdio', `@${modeFile}`, log],
      killGraceMs: 200,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100, maxAttempts: 5 },
    })
    const first = pidOf(fiber)
    // The first connect may already have sent initialize: a child slower to start than the probe's
    // wait (killGraceMs) is taken for a silent legacy one until it refuses. Count from here on.
    const before = count(log, 'initialize')
    writeFileSync(modeFile, 'legacy')
    process.kill(first, 'SIGKILL')
    // The cached modern era fails at the replacement's tools/list; the next attempt starts with initialize.
    await expect.poll(() => stateOf(fiber)?.kind === 'connected' && pidOf(fiber) !== first, { timeout: 20_000, interval: 20 }).toBe(true)
    expect(await host.tools.execute('mcp__twin__echo', { text: 'after' })).toMatchObject({ content: [{ text: 'echo: after' }] })
    expect(count(log, 'initialize') - before).toBe(1)
  })
})
