import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Context, type Logger } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { Config, type Config as ConfigType } from '../src/config.ts'
import { ServerConnection } from '../src/connection.ts'
import { attachConsoleLogger, ToolRegistry } from '@mcp-bridge/host'
import type { ToolExecution } from '../src/index.ts'
import { ToolSet } from '../src/tool-set.ts'
import { tempDir } from './support/cleanup.ts'
import { startHost, stateOf, whenTools, type TestHost } from './support/host.ts'
import { ManualClock } from './support/manual-clock.ts'
import { rawServerScript } from './support/raw-server.ts'

let host: TestHost | undefined
let connection: ServerConnection | undefined
afterEach(async () => {
  await connection?.dispose()
  await host?.dispose()
  host = connection = undefined
})

const startsFile = () => join(tempDir('bridge-starts-'), 'starts')
const raw = (script: string, reconnect: Record<string, unknown>) => ({
  transport: 'stdio',
  serverName: 'flaky',
  command: process.execPath,
  args: ['-e', script],
  killGraceMs: 100,
  reconnect,
})
const exec = () => ({ signal: new AbortController().signal }) as ToolExecution

describe('reconnect against real crashing servers', () => {
  it('recovers from a server that crashes on its first start', async () => {
    const file = startsFile()
    host = await startHost()
    await host.load(raw(rawServerScript({ crashStarts: { file, from: 1, to: 1 } }), { initialDelayMs: 20, maxDelayMs: 100, maxAttempts: 3 }))
    await whenTools(host, (names) => names.includes('mcp__flaky__ok'))
    expect(await host.tools.execute('mcp__flaky__ok', {})).toMatchObject({ content: [{ text: 'fine' }] })
    expect(readFileSync(file, 'utf8')).toBe('2')
    expect(host.logs.join('\n')).toMatch(/connection failed; retrying in 20ms \(attempt 1\/3\)[\s\S]*reconnected and re-synced tools \(attempt 1\/3\)/)
  })

  it('keeps the last good tools through an outage, then gives up on a crash loop and unregisters them', async () => {
    const file = startsFile()
    host = await startHost()
    // Healthy on the first start, crashing on every start after it.
    const script = rawServerScript({ crashStarts: { file, from: 2, to: 1e9 } })
    const fiber = await host.load(raw(script, { initialDelayMs: 50, maxDelayMs: 200, maxAttempts: 3 }))
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__flaky__die', 'mcp__flaky__ok'])
    await host.tools.execute('mcp__flaky__die', {})
    expect(stateOf(fiber)?.kind).toBe('reconnecting')
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__flaky__die', 'mcp__flaky__ok'])
    await expect.poll(() => stateOf(fiber)?.kind, { timeout: 10_000 }).toBe('stopped')
    await expect.poll(() => host!.tools.list()).toEqual([])
    expect(readFileSync(file, 'utf8')).toBe('4')
    expect(host.logs.join('\n')).toMatch(/gave up after 3 consecutive failed reconnect attempts/)
  })

  it('refills the budget only after a connection stayed up for maxDelayMs (injected clock)', async () => {
    const root = new Context()
    attachConsoleLogger(root, { level: 'warn', write: () => {} })
    await root.plugin(ToolRegistry)
    const clock = new ManualClock()
    const config = (Config as unknown as (input: unknown) => ConfigType)(
      raw(rawServerScript(), { initialDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 2 }),
    )
    connection = new ServerConnection({ config, logger: root.logger('mcp:flaky') as Logger, tools: new ToolSet(root.tools), clock })
    const c = connection
    await c.ready
    const crashAndRecover = async () => {
      await c.invoke('die', {}, exec()).catch(() => {})
      expect(c.status.kind).toBe('reconnecting')
      clock.advance(clock.delays.at(-1)!)
      await expect.poll(() => c.status.kind).toBe('connected')
    }
    await crashAndRecover() // attempt 1 of 2
    clock.advance(1_000) // stable for maxDelayMs: the outage is over
    await crashAndRecover() // attempt 1 of 2 again
    await crashAndRecover() // a crash inside the window: attempt 2 of 2
    await c.invoke('die', {}, exec()).catch(() => {})
    expect(c.status).toMatchObject({ kind: 'stopped', reason: expect.stringMatching(/gave up after 2/) })
    expect(clock.delays).toEqual([100, 100, 200])
  })
})
