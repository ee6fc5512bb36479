/**
 * Durations a scenario states relative to what it configures, so a bound says what it means:
 * `toolCallTimeoutMs * 3 + 2000` is "three times the configured timeout, plus slack for a loaded
 * machine", and stays right when the configured value changes. A duration is a whole number of
 * milliseconds, or a sum of terms, each a number, a client config path (`reconnect.maxDelayMs`),
 * or a path times a factor (`killGraceMs * 2`, `debounceMs * 0.5`). Pure.
 */
export type Duration = number | string

const NUMBER = String.raw`\d+(?:\.\d+)?`
const PATH = String.raw`[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*`
const TERM = new RegExp(String.raw`^(?:(${NUMBER})\s*\*\s*(${PATH})|(${PATH})(?:\s*\*\s*(${NUMBER}))?|(${NUMBER}))$`)

/** The value of a duration under a client configuration, or the reason it has none. */
export function evaluateDuration(duration: Duration, config: Record<string, unknown>): { ms: number } | { error: string } {
  if (typeof duration === 'number') return { ms: duration }
  let total = 0
  for (const raw of duration.split('+')) {
    const term = TERM.exec(raw.trim())
    if (!term) return { error: `"${raw.trim()}" is not a number, a config path or "path * factor"` }
    const [, leftFactor, rightPath, path, factor, constant] = term
    if (constant !== undefined) {
      total += Number(constant)
      continue
    }
    const name = (rightPath ?? path)!
    const value = configValue(config, name)
    if (typeof value !== 'number') return { error: `the scenario's client config sets no number at ${name}` }
    total += value * Number(leftFactor ?? factor ?? 1)
  }
  return { ms: Math.round(total) }
}

function configValue(config: Record<string, unknown>, path: string): unknown {
  let value: unknown = config
  for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
  return value
}

/** How a bound reads in a message: the expression and what it came to. */
export function describeDuration(duration: Duration, ms: number): string {
  return typeof duration === 'number' ? `${ms} ms` : `${duration} = ${ms} ms`
}
