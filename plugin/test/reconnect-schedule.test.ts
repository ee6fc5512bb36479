import { Context, type Logger } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { backoffDelay } from '../src/backoff.ts'
import { Config, type Config as ConfigType } from '../src/config.ts'
import { ServerConnection } from '../src/connection.ts'
import { Debouncer } from '@mcp-bridge/process'
import { attachConsoleLogger, ToolRegistry } from '@mcp-bridge/host'
import { ToolSet } from '../src/tool-set.ts'
import { ManualClock } from './support/manual-clock.ts'

describe('backoffDelay', () => {
  it('doubles from initialDelayMs and caps at maxDelayMs', () => {
    const policy = { initialDelayMs: 500, maxDelayMs: 30_000 }
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => backoffDelay(policy, n))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000,
    ])
  })
})

describe('Debouncer', () => {
  it('fires after the quiet period, and no later than maxWait into a storm', () => {
    const clock = new ManualClock()
    const fired: number[] = []
    const debouncer = new Debouncer(clock, 50, 200, () => fired.push(clock.now()))
    for (let t = 0; t < 1000; t += 10) {
      debouncer.notify()
      clock.advance(10)
    }
    // A storm of 100 notifications 10 ms apart: one fire per maxWait window, never zero.
    expect(fired).toEqual([200, 400, 600, 800, 1000])
    clock.advance(100)
    expect(fired).toHaveLength(5)
    debouncer.notify()
    clock.advance(49)
    expect(fired).toHaveLength(5)
    clock.advance(1)
    expect(fired.at(-1)).toBe(1150)
  })
})

let root: Context | undefined
afterEach(async () => {
  await connection?.dispose()
  root = undefined
  connection = undefined
})
let connection: ServerConnection | undefined

/** A real child that dies at once: every connect attempt fails for real. */
const crashing = (extra: Record<string, unknown> = {}) =>
  (Config as unknown as (input: unknown) => ConfigType)({
    transport: 'stdio',
    serverName: 'crashy',
    command: process.execPath,
    args: ['-e', 'process.stderr.write("fatal: missing config file\\n"); process.exit(3)'],
    ...extra,
  })

async function supervise(config: ConfigType) {
  root = new Context()
  const logs: string[] = []
  attachConsoleLogger(root, { level: 'debug', write: (line) => logs.push(line) })
  await root.plugin(ToolRegistry)
  const clock = new ManualClock()
  const tools = new ToolSet(root!.tools)
  connection = new ServerConnection({ config, logger: root.logger('mcp:crashy') as Logger, tools, clock })
  return { clock, logs, connection }
}

/** Lets the real child spawn, die and be noticed before time moves on. */
async function settle(connection: ServerConnection, clock: ManualClock) {
  await expect.poll(() => clock.pending + (connection.status.kind === 'stopped' ? 1 : 0)).toBeGreaterThan(0)
}

describe('reconnect supervisor (real crashing child, injected clock)', () => {
  it('retries on the backoff schedule, fails calls fast meanwhile, and stops after maxAttempts', async () => {
    const { clock, logs, connection } = await supervise(crashing({ reconnect: { initialDelayMs: 100, maxDelayMs: 400, maxAttempts: 4 } }))
    const first = await connection.ready
    expect(String(first.error)).toMatch(/fatal: missing config file/)
    for (let i = 0; i < 4; i++) {
      await settle(connection, clock)
      expect(connection.status.kind).toBe('reconnecting')
      await expect(connection.invoke('x', {}, {} as never)).rejects.toThrow(
        new RegExp(`reconnecting \\(attempt ${i + 1} of 4, next try in ${[100, 200, 400, 400][i]} ms\\)`),
      )
      clock.advance(10_000)
    }
    await expect.poll(() => connection.status.kind).toBe('stopped')
    expect(clock.delays).toEqual([100, 200, 400, 400])
    const text = logs.join('\n')
    expect(text).toMatch(/connection failed; retrying in 100ms \(attempt 1\/4\)/)
    expect(text).toMatch(/connection failed; retrying in 400ms \(attempt 4\/4\)/)
    expect(text).toMatch(/gave up after 4 consecutive failed reconnect attempts/)
    await expect(connection.invoke('x', {}, {} as never)).rejects.toThrow(/is disconnected: gave up after 4/)
  })

  it('does not retry when reconnect is disabled', async () => {
    const { clock, logs, connection } = await supervise(crashing({ reconnect: { enabled: false } }))
    await connection.ready
    expect(clock.pending).toBe(0)
    expect(connection.status).toMatchObject({ kind: 'stopped' })
    expect(logs.join('\n')).toMatch(/connection failed and reconnect is disabled/)
  })

  it('cancels a pending reconnect on dispose', async () => {
    const { clock, connection } = await supervise(crashing())
    await connection.ready
    await settle(connection, clock)
    expect(clock.pending).toBe(1)
    await connection.dispose()
    expect(clock.pending).toBe(0)
    expect(connection.status.kind).toBe('disposed')
  })
})
