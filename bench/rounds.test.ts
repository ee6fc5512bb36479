/**
 * Interleaved rounds (rounds.ts): the warm-up's budget is its own, the timed phase always has a
 * figure, and the variants take turns. Budgets of 0 and of "never" stand in for a slow machine and
 * a fast one, so nothing here depends on how fast this machine is.
 */
import { describe, expect, it } from 'vitest'
import { interleavedRounds, type RoundsPlan } from './rounds.ts'

const NEVER = Number.MAX_SAFE_INTEGER

function recorder() {
  const order: string[] = []
  const call = (name: string) => async () => void order.push(name)
  return { order, calls: { a: call('a'), b: call('b') } }
}

describe('interleavedRounds', () => {
  it('times every call whatever the warm-up used: a warm-up out of budget leaves the timed phase its own', async () => {
    const { calls } = recorder()
    const plan: RoundsPlan = { warmup: 1_000_000, warmupLimitMs: 0, calls: 12, batch: 3, timedLimitMs: NEVER, minBatches: 1 }
    const samples = await interleavedRounds(['a', 'b'], calls, plan)
    expect(samples.warmupRounds).toBeLessThan(plan.warmup)
    expect(samples.wall.a).toHaveLength(12)
    expect(samples.wall.b).toHaveLength(12)
    expect(samples.stoppedEarly).toBe(false)
  })

  it('runs the minimum batches past an exhausted timed budget, and says it stopped early', async () => {
    const { calls } = recorder()
    const samples = await interleavedRounds(['a', 'b'], calls, { warmup: 2, warmupLimitMs: NEVER, calls: 30, batch: 2, timedLimitMs: 0, minBatches: 3 })
    expect(samples.warmupRounds).toBe(2)
    expect(samples.wall.a).toHaveLength(6)
    expect(samples.wall.b).toHaveLength(6)
    expect(samples.stoppedEarly).toBe(true)
    expect(Number.isFinite(samples.cpuPerCallUs.a)).toBe(true)
  })

  it('warms up one call per variant per round, then rotates which variant opens each batch', async () => {
    const { order, calls } = recorder()
    await interleavedRounds(['a', 'b'], calls, { warmup: 2, warmupLimitMs: NEVER, calls: 4, batch: 2, timedLimitMs: NEVER, minBatches: 1 })
    expect(order.join('')).toBe('abab' + 'aabb' + 'bbaa')
  })
})
