import type { CheckResult, SpecRef } from '../model.ts'
import { describeDuration, evaluateDuration } from './durations.ts'
import type { Scenario, TookSpec } from './scenario.ts'

/**
 * The load allowance on a time the client bounds by its own configured setting (FORMAT.md, Time
 * as evidence): three times the setting, plus 2 s. A loaded 2-core machine delays every timer and
 * every pipe, so a client that honours a 300 ms timeout may answer after 900 ms; it never answers
 * before the timeout itself. One rule, for the scenarios' upper bounds and the kit's own waits.
 */
export function withLoadAllowance(configuredMs: number): number {
  return configuredMs * 3 + 2000
}

/** The kit's bounds on a driven client's answers where the scenario configures nothing they wait for. */
export const DEFAULT_DRIVER_BOUNDS = { connectMs: 20_000, listMs: 10_000, callMs: 20_000, closeMs: 10_000 }

/**
 * Pure: the kit's bounds on a driven client's answers under a scenario's client config. A client
 * that honours the timeout the scenario passes it (callTimeoutMs, connectTimeoutMs) answers just
 * after that timeout; a kit that stopped waiting at the same moment (a 20 s call bound against a
 * 20 s toolCallTimeoutMs) would call a correct client hung. So no bound is below the configured
 * timeout with its load allowance.
 */
export function driverBounds(config: Record<string, unknown>): typeof DEFAULT_DRIVER_BOUNDS {
  const atLeast = (fallback: number, setting: unknown) => (typeof setting === 'number' && setting > 0 ? Math.max(fallback, withLoadAllowance(setting)) : fallback)
  return {
    connectMs: atLeast(DEFAULT_DRIVER_BOUNDS.connectMs, config.connectTimeoutMs),
    listMs: DEFAULT_DRIVER_BOUNDS.listMs,
    callMs: atLeast(DEFAULT_DRIVER_BOUNDS.callMs, config.toolCallTimeoutMs),
    closeMs: DEFAULT_DRIVER_BOUNDS.closeMs,
  }
}

/** What the runner measured with its own monotonic clock (performance.now), in milliseconds. */
export interface Measured {
  /** From the client's start until it was ready or had given up (the adapter's start resolved). */
  startMs?: number
  /** Each step's duration, by step index; undefined for a step that never ran. */
  stepMs: Array<number | undefined>
  /** From the client's start until the end-of-run expectations were judged. */
  totalMs?: number
  /** The teardown's dispose, when no step had disposed the client. */
  disposeMs?: number
  /** The dispose had not finished when the kit stopped waiting: `disposeMs` is only how long it waited. */
  disposeUnfinished?: boolean
}

/**
 * Pure: the scenario's duration bounds as checks. Time is evidence here: a timeout that fires late
 * or never (a configured bound not applied, an SDK's own default in its place) takes the wrong
 * time even when its outcome looks right. Bounds are relative to what the scenario configures,
 * with slack for a loaded machine, so a slow runner does not flake them.
 */
export function checkTimings(scenario: Scenario, measured: Measured): CheckResult[] {
  const spec: SpecRef = scenario.spec[0]!
  const checks: CheckResult[] = []
  const judge = (id: string, what: string, took: TookSpec, ms: number | undefined, unfinished = false): void => {
    const title = `${what} takes as long as the behaviour says`
    if (ms === undefined) return void checks.push({ id, title, status: 'skip', message: `${what} did not run, so its time is not judged`, spec })
    const problems: string[] = []
    for (const [bound, duration] of [['atLeast', took.atLeast], ['atMost', took.atMost]] as const) {
      if (duration === undefined) continue
      const value = evaluateDuration(duration, scenario.client)
      // Validated when the scenario loaded; a config that no longer holds is the scenario's error.
      if ('error' in value) return void checks.push({ id, title, status: 'error', message: value.error, spec })
      if (bound === 'atLeast' && ms < value.ms) problems.push(`took ${ms} ms, sooner than ${describeDuration(duration, value.ms)}`)
      // A wait the kit cut short is a lower bound of the time, never the time itself.
      if (bound === 'atMost' && (ms > value.ms || (unfinished && ms >= value.ms))) problems.push(`${tookMessage(ms, unfinished)}, longer than ${describeDuration(duration, value.ms)}`)
    }
    checks.push({ id, title, status: problems.length ? 'fail' : 'pass', message: problems.length ? problems.join('; ') : `${tookMessage(ms, unfinished)}${bounds(took, scenario)}`, spec, details: unfinished ? { ms, unfinished } : { ms } })
  }
  if (scenario.timing?.start) judge('timing/start', 'The client start', scenario.timing.start, measured.startMs)
  for (const [index, step] of scenario.steps.entries()) if (step.took) judge(`timing/step-${index + 1}`, `Step ${index + 1}`, step.took, measured.stepMs[index])
  if (scenario.timing?.total) judge('timing/total', 'The whole run', scenario.timing.total, measured.totalMs)
  if (scenario.timing?.dispose) judge('timing/dispose', 'The dispose at the end of the run', scenario.timing.dispose, measured.disposeMs, measured.disposeUnfinished)
  return checks
}

function tookMessage(ms: number, unfinished: boolean): string {
  return unfinished ? `had not finished after ${ms} ms, when the kit stopped waiting` : `took ${ms} ms`
}

function bounds(took: TookSpec, scenario: Scenario): string {
  const parts = (['atLeast', 'atMost'] as const).flatMap((bound) => {
    const duration = took[bound]
    if (duration === undefined) return []
    const value = evaluateDuration(duration, scenario.client)
    return 'ms' in value ? [`${bound === 'atLeast' ? 'at least' : 'at most'} ${describeDuration(duration, value.ms)}`] : []
  })
  return parts.length ? ` (${parts.join(', ')})` : ''
}
