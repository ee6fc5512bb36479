import type { ListChangedSpec, StepSpec } from './schema.ts'

export type TimelineEvent = { atMs: number; notify: number } | { atMs: number; apply: StepSpec }

/**
 * The list_changed script as timed events, relative to the trigger. Notification k goes out at
 * (k-1) × interval; a step with no lag lands just before its notification (the list is ready when
 * the client hears about it), a lagged step lands lagMs after it. Steps numbered above `count`
 * change the list without any notification.
 */
export function planTimeline(spec: ListChangedSpec): TimelineEvent[] {
  const count = notificationCount(spec)
  const last = Math.max(count, ...spec.steps.map((step) => step.at))
  const events: TimelineEvent[] = []
  for (let k = 1; k <= last; k++) {
    const atMs = (k - 1) * spec.intervalMs
    const steps = spec.steps.filter((step) => step.at === k)
    const lag = (step: StepSpec) => step.lagMs ?? spec.lagMs
    for (const step of steps) if (lag(step) === 0) events.push({ atMs, apply: step })
    if (k <= count) events.push({ atMs, notify: k })
    for (const step of steps) if (lag(step) > 0) events.push({ atMs: atMs + lag(step), apply: step })
  }
  // Stable: same-time events keep the order above.
  return events.sort((a, b) => a.atMs - b.atMs)
}

export function notificationCount(spec: ListChangedSpec): number {
  return spec.count ?? Math.max(1, ...spec.steps.map((step) => step.at))
}
