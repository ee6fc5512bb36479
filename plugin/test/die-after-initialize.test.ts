import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fixtureCommand, type BehaviourInput } from '@mcp-bridge/fixtures-server'
import type { Fiber } from 'cordis'
import { describe, expect, it } from 'vitest'
import { publicToolName } from '../src/index.ts'
import { tempDir } from './support/cleanup.ts'
import { startHost, stateOf, type TestHost } from './support/host.ts'

/**
 * A server that answers initialize and exits at once: the write of notifications/initialized
 * fails with EPIPE, and a transport that waited for 'drain' wedged the attempt for good (5 of 6
 * fresh hosts never activated; a reconnect stayed at "reconnecting 3/3"). Every attempt must end,
 * and every supervisor must reach "connected" or "gave up", on real child processes.
 */
const HOSTS = 50
const BATCH = 10
/** Far above what an attempt takes (a fixture starts in ~0.3 s), far below a wedge (forever). */
const BOUND_MS = 30_000

const dies: BehaviourInput = { tools: [{ name: 'echo' }, { name: 'die', exit: true }], stdio: { fault: 'exit' } }

const config = (serverName: string, command: { command: string; args: string[] }, maxAttempts: number) => ({
  transport: 'stdio',
  serverName,
  ...command,
  killGraceMs: 200,
  // Ten fixtures start at once beside the rest of the suite (files run four at a time): a healthy
  // start took over 10 s on a loaded machine. Still below BOUND_MS, so an attempt that wedges
  // cannot hide behind it.
  connectTimeoutMs: 20_000,
  reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts },
})

/** Resolves with the value, or with 'timed out' after `ms` (a wedge must fail the test, not hang it). */
async function within<T>(task: Promise<T>, ms: number): Promise<T | 'timed out'> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), ms)))
  try {
    return await Promise.race([task, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** The supervisor's end state: "connected" or "stopped" (gave up), polled until it is one of them. */
async function settledState(fiber: Fiber): Promise<string> {
  await expect.poll(() => stateOf(fiber)?.kind, { timeout: BOUND_MS, interval: 20 }).toMatch(/^(connected|stopped)$/)
  return stateOf(fiber)!.kind
}

async function inBatches(count: number, run: (index: number) => Promise<void>): Promise<void> {
  for (let first = 0; first < count; first += BATCH) {
    await Promise.all(Array.from({ length: Math.min(BATCH, count - first) }, (_, i) => run(first + i)))
  }
}

const attemptsFailed = (host: TestHost, serverName: string) =>
  host.logs.filter((line) => line.includes(`mcp:${serverName}`) && /connection attempt failed|connection lost:/.test(line)).length

describe('a server that dies right after answering initialize', () => {
  it(`${HOSTS} fresh hosts: every activation and every dispose ends, every supervisor connects or gives up`, async () => {
    const dir = tempDir('bridge-die-init-')
    await inBatches(HOSTS, async (index) => {
      const host = await startHost()
      // Odd hosts: the first start dies, the second is healthy (crash.starts), so they connect.
      const recovers = index % 2 === 1
      const behaviour = recovers ? { ...dies, crash: { starts: 1, stateFile: join(dir, `state-${index}.json`) } } : dies
      const fiber = await within(host.load(config(`fresh${index}`, fixtureCommand(behaviour), 1)), BOUND_MS)
      expect(fiber, `host ${index} activation`).not.toBe('timed out')
      const state = await settledState(fiber as Fiber)
      expect(state, `host ${index}`).toBe(recovers ? 'connected' : 'stopped')
      // One failed attempt each: the first start; the recovering ones then connect, the others give up.
      expect(attemptsFailed(host, `fresh${index}`), `host ${index} failed attempts`).toBe(recovers ? 1 : 2)
      expect(await within((fiber as Fiber).dispose(), BOUND_MS), `host ${index} dispose`).not.toBe('timed out')
    })
  }, 240_000)

  it(`${HOSTS} reconnects into it: every attempt ends, every supervisor connects or gives up`, async () => {
    const dir = tempDir('bridge-die-init-')
    await inBatches(HOSTS, async (index) => {
      const host = await startHost()
      const file = join(dir, `behaviour-${index}.json`)
      writeFileSync(file, JSON.stringify({ tools: dies.tools }))
      const fiber = await host.load(config(`again${index}`, fixtureCommand(file), 2))
      expect(stateOf(fiber)?.kind, host.logs.filter((line) => line.includes(`mcp:again${index}`)).join('\n')).toBe('connected')
      // From now on every start dies after initialize; odd hosts recover on the second restart.
      const recovers = index % 2 === 1
      writeFileSync(file, JSON.stringify(recovers ? { ...dies, crash: { starts: 1, stateFile: join(dir, `state-${index}.json`) } } : dies))
      const call = await within(host.tools.execute(publicToolName(`again${index}`, 'die'), {}), BOUND_MS)
      expect(call).toMatchObject({ isError: true, error: { code: 'SERVER_UNAVAILABLE' } })
      await expect.poll(() => stateOf(fiber)?.kind, { timeout: BOUND_MS, interval: 20 }).not.toBe('connected')
      const state = await settledState(fiber)
      expect(state, `host ${index}`).toBe(recovers ? 'connected' : 'stopped')
      // Lost once, then each restart failed: two for the ones that gave up (maxAttempts 2), one for the others.
      expect(attemptsFailed(host, `again${index}`), `host ${index} losses and failed attempts`).toBe(recovers ? 2 : 3)
      expect(await within(fiber.dispose(), BOUND_MS), `host ${index} dispose`).not.toBe('timed out')
    })
  }, 240_000)
})
