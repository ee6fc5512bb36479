import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as bridge from '../src/index.ts'
import { fixtureCommand, type BehaviourInput } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { tempDir } from './support/cleanup.ts'
import { startHost } from './support/host.ts'
import { descendants } from '../../test/support/process-tree.ts'

/**
 * dispose() while activation waits for a first connection that will not come in time. It used to
 * wait for the attempt's connectTimeoutMs and then the kill grace (about 32 s by default); it must
 * settle within the kill grace plus a small constant, and return only once every process the
 * instance started is gone (a retry's child included).
 */
const GRACE_MS = 1_000
/** A child's start is waited for, not timed: on a loaded machine spawning alone can pass vitest's 1 s poll default. */
const SPAWN_WAIT = { timeout: 15_000 }
/** connectTimeoutMs far above the grace: a dispose that waited for it would be obvious. */
const CONNECT_MS = 20_000

const hangsOnInitialize: BehaviourInput = { tools: [{ name: 'echo' }], crash: { hangOn: ['initialize'] } }

function instance(behaviour: BehaviourInput | string, wire: string, extra: Record<string, unknown> = {}) {
  return {
    transport: 'stdio',
    serverName: 'slow',
    ...fixtureCommand(behaviour),
    env: { MCP_FIXTURE_WIRE: wire },
    killGraceMs: GRACE_MS,
    connectTimeoutMs: CONNECT_MS,
    ...extra,
  }
}

/** How many initialize requests the fixture (every start of it) has received, from its wire log. */
function initializeRequests(wire: string): number {
  try {
    return readFileSync(wire, 'utf8').split('\n').filter((line) => line.includes('"dir":"recv"') && line.includes('"method":"initialize"')).length
  } catch {
    return 0
  }
}

async function timedDispose(dispose: () => Promise<void>): Promise<number> {
  const started = performance.now()
  await dispose()
  return performance.now() - started
}

describe('dispose during activation', () => {
  it('a server that hangs in initialize and exits on EOF: dispose settles well within one grace period', async () => {
    const host = await startHost()
    const wire = join(tempDir('bridge-dispose-'), 'wire.jsonl')
    const fiber = host.ctx.plugin(bridge, instance(hangsOnInitialize, wire))
    await expect.poll(() => initializeRequests(wire), SPAWN_WAIT).toBe(1)
    const ms = await timedDispose(() => fiber.dispose())
    expect(ms).toBeLessThan(GRACE_MS * 0.5)
    expect(descendants(process.pid).map((entry) => entry.pid)).toEqual([])
  })

  it('a server that also ignores EOF: dispose takes one grace period (then SIGTERM), not connectTimeoutMs', async () => {
    const host = await startHost()
    const wire = join(tempDir('bridge-dispose-'), 'wire.jsonl')
    const fiber = host.ctx.plugin(bridge, instance({ ...hangsOnInitialize, stdio: { ignoreEof: true } }, wire))
    await expect.poll(() => initializeRequests(wire), SPAWN_WAIT).toBe(1)
    const ms = await timedDispose(() => fiber.dispose())
    expect(ms).toBeGreaterThanOrEqual(GRACE_MS * 0.95)
    expect(ms).toBeLessThan(GRACE_MS * 1.5)
    expect(descendants(process.pid).map((entry) => entry.pid)).toEqual([])
  })

  it("during a retry: dispose returns only after the retry's child is gone", async () => {
    const host = await startHost()
    const dir = tempDir('bridge-dispose-')
    const wire = join(dir, 'wire.jsonl')
    const file = join(dir, 'behaviour.json')
    // The first start dies at once; once the plugin has scheduled its retry, the file changes so
    // that the retry's start hangs in initialize and ignores EOF.
    writeFileSync(file, JSON.stringify({ crash: { onStart: true } }))
    const fiber = host.ctx.plugin(bridge, instance(file, wire, { reconnect: { initialDelayMs: 200 } }))
    await expect.poll(() => host.logs.join('\n'), SPAWN_WAIT).toMatch(/retrying in 200ms/)
    writeFileSync(file, JSON.stringify({ ...hangsOnInitialize, stdio: { ignoreEof: true } }))
    await expect.poll(() => initializeRequests(wire), SPAWN_WAIT).toBe(1)
    // The retry's server and its watchdog (both children of this process).
    expect(descendants(process.pid).filter((entry) => entry.ppid === process.pid)).toHaveLength(2)
    const ms = await timedDispose(() => fiber.dispose())
    // Checked at once, not polled: dispose has already waited for it.
    expect(descendants(process.pid).map((entry) => entry.pid)).toEqual([])
    expect(ms).toBeLessThan(GRACE_MS * 1.5)
  })

  it('the tools service leaving (a host shutting down disposes it first) stops the attempt at once, not after connectTimeoutMs', async () => {
    const host = await startHost()
    const wire = join(tempDir('bridge-dispose-'), 'wire.jsonl')
    host.ctx.plugin(bridge, instance(hangsOnInitialize, wire))
    await expect.poll(() => initializeRequests(wire), SPAWN_WAIT).toBe(1)
    // The registry's disposal waits for every instance that injects it.
    const ms = await timedDispose(() => host.dispose())
    expect(ms).toBeLessThan(GRACE_MS * 0.5)
    expect(descendants(process.pid).map((entry) => entry.pid)).toEqual([])
  })

  it('an update during activation applies the new configuration at once (Cordis alone would drop it and keep the old one)', async () => {
    const host = await startHost()
    const dir = tempDir('bridge-dispose-')
    const wire = join(dir, 'wire.jsonl')
    const fiber = host.ctx.plugin(bridge, instance(hangsOnInitialize, wire))
    await expect.poll(() => initializeRequests(wire), SPAWN_WAIT).toBe(1)
    const started = performance.now()
    await fiber.update(instance({ tools: [{ name: 'fresh' }] }, join(dir, 'fresh.jsonl')))
    expect(performance.now() - started).toBeLessThan(CONNECT_MS / 2)
    expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__slow__fresh'])
    expect((fiber.config as { env: Record<string, string> }).env.MCP_FIXTURE_WIRE).toBe(join(dir, 'fresh.jsonl'))
  })
})
