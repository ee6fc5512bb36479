/**
 * The scenarios' time is a loaded machine's: no wait of the kit equals or undercuts a timeout a
 * scenario configures, and no scenario asks a client to beat the scheduler by a few hundred
 * milliseconds. Pure checks over every scenario file (the under-load test runs them).
 */
import { describe, expect, it } from 'vitest'
import { loadScenarios } from '../src/client/load.ts'
import { DEFAULT_DRIVER_BOUNDS, driverBounds, withLoadAllowance } from '../src/client/timing.ts'

const scenarios = loadScenarios().map(({ scenario }) => scenario)

describe("the kit's waits on a driven client", () => {
  it('keep their defaults where the scenario configures no timeout', () => {
    expect(driverBounds({ serverName: 'x' })).toEqual(DEFAULT_DRIVER_BOUNDS)
    expect(driverBounds({ toolCallTimeoutMs: 200, connectTimeoutMs: 300 })).toEqual(DEFAULT_DRIVER_BOUNDS)
  })

  it('outlast a configured timeout with its load allowance: a 20 s toolCallTimeoutMs is not met by a 20 s bound', () => {
    const bounds = driverBounds({ toolCallTimeoutMs: 20_000, connectTimeoutMs: 10_000 })
    expect(bounds.callMs).toBe(withLoadAllowance(20_000))
    expect(bounds.connectMs).toBe(withLoadAllowance(10_000))
  })

  it.each(scenarios.map((s) => [s.id, s] as const))('%s: each bound is past the timeout it waits on', (_id, scenario) => {
    const bounds = driverBounds(scenario.client)
    const { toolCallTimeoutMs, connectTimeoutMs } = scenario.client as { toolCallTimeoutMs?: number; connectTimeoutMs?: number }
    if (toolCallTimeoutMs !== undefined) expect(bounds.callMs).toBeGreaterThanOrEqual(withLoadAllowance(toolCallTimeoutMs))
    if (connectTimeoutMs !== undefined) expect(bounds.connectMs).toBeGreaterThanOrEqual(withLoadAllowance(connectTimeoutMs))
  })
})

describe('scenario settings leave a loaded machine its slack', () => {
  /** A tick stalled this many intervals still resets the per-call timeout in time. */
  const TICKS_OF_SLACK = 5
  const progressTools = scenarios.flatMap((scenario) =>
    (scenario.server as { tools?: Array<{ name: string; progress?: { intervalMs: number } }> }).tools?.filter((tool) => tool.progress).map((tool) => [`${scenario.id} ${tool.name}`, scenario, tool.progress!.intervalMs] as const) ?? [],
  )

  it('there are progress scenarios to judge', () => expect(progressTools.length).toBeGreaterThan(0))

  it.each(progressTools)('%s: progress comes far more often than the per-call timeout it keeps resetting', (_name, scenario, intervalMs) => {
    const { toolCallTimeoutMs } = scenario.client as { toolCallTimeoutMs?: number }
    expect(toolCallTimeoutMs, 'a progress scenario sets toolCallTimeoutMs').toBeTypeOf('number')
    expect(toolCallTimeoutMs).toBeGreaterThanOrEqual(intervalMs * TICKS_OF_SLACK)
  })
})
