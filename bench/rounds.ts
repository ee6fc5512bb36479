/**
 * Interleaved rounds: the variants of one measurement take turns, one call each while warming up,
 * then in timed batches whose order rotates, so drift (a neighbour's burst, a JIT tier-up, a GC)
 * hits every variant alike and the ratios stay meaningful on a busy machine.
 *
 * The warm-up and the timed phase have budgets of their own: with one shared budget, a loaded
 * machine spent it all warming up and the timed figure was never reported. The timed phase always
 * runs `minBatches` rounds of batches, whatever its budget, so every run has a figure.
 */

export interface RoundsPlan {
  /** Warm-up rounds (one call per variant each), cut short by `warmupLimitMs`. */
  warmup: number
  warmupLimitMs: number
  /** Timed calls per variant, in batches of `batch`, cut short by `timedLimitMs` after `minBatches`. */
  calls: number
  batch: number
  timedLimitMs: number
  minBatches: number
}

export interface RoundsSamples<V extends string> {
  /** Wall time of each call, ms. */
  wall: Record<V, number[]>
  /** This process's CPU time (user + system) per call, µs, over all of a variant's batches. */
  cpuPerCallUs: Record<V, number>
  /** Warm-up rounds done (`warmup` unless its budget ran out first). */
  warmupRounds: number
  stoppedEarly: boolean
}

export async function interleavedRounds<V extends string>(variants: readonly V[], calls: Record<V, () => Promise<void>>, plan: RoundsPlan): Promise<RoundsSamples<V>> {
  const blank = <T>(value: () => T) => Object.fromEntries(variants.map((v) => [v, value()])) as Record<V, T>
  const warmupStarted = performance.now()
  let warmupRounds = 0
  while (warmupRounds < plan.warmup && performance.now() - warmupStarted <= plan.warmupLimitMs) {
    for (const variant of variants) await calls[variant]()
    warmupRounds++
  }
  const started = performance.now()
  const wall = blank<number[]>(() => [])
  const cpuUs = blank(() => 0)
  let stoppedEarly = false
  for (let b = 0; b < plan.calls / plan.batch; b++) {
    if (b >= plan.minBatches && performance.now() - started > plan.timedLimitMs) {
      stoppedEarly = true
      break
    }
    // Rotate which variant goes first, so none always runs right after another.
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(b + k) % variants.length]!
      const into = wall[variant]
      const cpu = process.cpuUsage()
      for (let i = 0; i < plan.batch; i++) {
        const t0 = performance.now()
        await calls[variant]()
        into.push(performance.now() - t0)
      }
      const used = process.cpuUsage(cpu)
      cpuUs[variant] += used.user + used.system
    }
  }
  const cpuPerCallUs = blank(() => 0)
  for (const v of variants) cpuPerCallUs[v] = wall[v].length ? cpuUs[v] / wall[v].length : Number.NaN
  return { wall, cpuPerCallUs, warmupRounds, stoppedEarly }
}
