import type { WireEntry } from '@mcp-bridge/fixtures-server'
import { describeDuration, evaluateDuration } from './durations.ts'
import type { Scenario } from './scenario.ts'

/** A `received` bound's `perGap` (scenario.ts): its `max` follows how spread out a sent burst was. */
type PerGap = NonNullable<Scenario['expect']['received'][string]['perGap']>

/** What the wire log showed of the burst, and the `max` it allows. */
export interface GapAllowance {
  max: number
  /** Why `max` is what it is, for the check's message. */
  said: string
}

/**
 * Pure: `max` plus one for each gap longer than `perGap.longerThan` between consecutive
 * `perGap.of` messages the fixture sent, by the times its wire log recorded. A debouncing client
 * answers each stretch of a burst once; how many stretches a loaded machine made of it is read
 * here, never assumed. A log without times (written before they were recorded) allows no more
 * than `max`, and says so.
 */
export function gapAllowance(wire: WireEntry[], max: number, perGap: PerGap, config: Record<string, unknown>): GapAllowance {
  const limit = evaluateDuration(perGap.longerThan, config)
  // Validated when the scenario loaded (scenario.ts), so an error here is a harness bug.
  if ('error' in limit) throw new Error(limit.error)
  const sent = wire.filter(({ dir, msg }) => dir === 'send' && (msg as { method?: string }).method === perGap.of)
  const times = sent.flatMap((entry) => (entry.at === undefined ? [] : [entry.at]))
  const longer = describeDuration(perGap.longerThan, limit.ms)
  if (times.length < sent.length) return { max, said: `max ${max}: the wire log has no times for the ${sent.length} ${perGap.of} sent` }
  const gaps = times.slice(1).map((at, i) => at - times[i]!)
  const long = gaps.filter((gap) => gap > limit.ms)
  const widest = gaps.length ? Math.round(Math.max(...gaps)) : 0
  return {
    max: max + long.length,
    said: `max ${max} + ${long.length} gaps longer than ${longer} between the ${sent.length} ${perGap.of} sent (widest ${widest} ms)`,
  }
}
