import { evaluateDuration, type Duration } from './durations.ts'
import type { Scenario } from './scenario.ts'

/**
 * The order runs start in when several run at once. Pure: it reads only what each scenario
 * states (its scripted waits and the processes it starts), never a time measured on this
 * machine, so the same scenarios always start in the same order. Results are reported in the
 * serial order whatever the start order (pool.ts).
 *
 * Runs that must be alone come first, one after another: placed among the others, each would
 * drain the pool and leave a core idle while the longest of the runs before it finished. The
 * others follow longest first, so that no long run starts last with the rest done (the wall time
 * of a pool is at least its last start plus that run's length).
 */
export function startOrder<T>(runs: readonly T[], alone: (run: T) => boolean, weight: (run: T) => number): number[] {
  const indices = runs.map((_, index) => index)
  const solo = indices.filter((i) => alone(runs[i]!))
  const rest = indices.filter((i) => !alone(runs[i]!))
  const weights = rest.map((i) => weight(runs[i]!))
  // Longest first; equal weights keep the serial order (a stable sort).
  const byWeight = rest.map((index, k) => ({ index, w: weights[k]! })).sort((a, b) => b.w - a.w)
  return [...solo, ...byWeight.map(({ index }) => index)]
}

/**
 * What a server start weighs against scripted milliseconds: a rank, not a prediction. A stdio run
 * starts the server as a child, and again after each kill or crash; an HTTP run's fixture is in
 * the kit's own process, and each kill, restart or crash after the first start is a reconnect.
 */
export const PROCESS_START_WEIGHT_MS = 500

type Estimated = Pick<Scenario, 'server' | 'client' | 'steps' | 'settle'>

/**
 * Pure: a rough length of one run, in ms: every wait the scenario scripts (its `wait` steps'
 * plain time and quiet windows, its settle window, the called tools' delays, progress and task
 * work, a call abandoned at abortAfterMs or at the client's toolCallTimeoutMs when the tool
 * hangs, a list_changed timeline's notifications), plus PROCESS_START_WEIGHT_MS per server start
 * (an HTTP run's first aside).
 */
export function estimatedRunMs(scenario: Estimated, transport: 'stdio' | 'http'): number {
  const client = scenario.client
  const duration = (value: Duration | undefined) => {
    if (value === undefined) return 0
    const evaluated = evaluateDuration(value, client)
    return 'ms' in evaluated ? evaluated.ms : 0
  }
  const tools = toolsOf(scenario.server)
  let ms = duration(scenario.settle)
  let starts = 1
  for (const step of scenario.steps) {
    if ('wait' in step) ms += (step.wait.ms ?? 0) + duration(step.wait.quiet)
    else if ('kill' in step || 'restart' in step) starts++
    else if ('call' in step) {
      const spec = tools.get(step.call.tool)
      if (spec?.exit !== undefined) starts++
      // The call ends when the server answers, or at the client's ceiling for it: the call timeout,
      // or the total one when progress or a task keeps the call alive (the scenario's own settings).
      const keptAlive = spec?.progress !== undefined || spec?.task !== undefined
      const ceiling = setting(client, keptAlive ? 'maxTotalTimeoutMs' : 'toolCallTimeoutMs')
      const hangs = spec?.hang === true || spec?.task?.end === 'never'
      const work = hangs ? (ceiling ?? 0) : Math.min(Math.max(spec?.delayMs ?? 0, spec?.progress?.durationMs ?? 0, spec?.task?.workMs ?? 0), ceiling ?? Infinity)
      ms += step.call.abortAfterMs ?? work
    }
  }
  const listChanged = scenario.server.listChanged
  if (listChanged) ms += (listChanged.count ?? listChanged.steps.at(-1)?.at ?? 1) * listChanged.intervalMs
  // The first start of an HTTP fixture is part of the kit's own set-up; every later one is a reconnect.
  return ms + (transport === 'stdio' ? starts : starts - 1) * PROCESS_START_WEIGHT_MS
}

function setting(client: Record<string, unknown>, name: string): number | undefined {
  const value = client[name]
  return typeof value === 'number' && value > 0 ? value : undefined
}

type ToolSpec = NonNullable<Scenario['server']['tools']>[number]

/** The behaviour's tools by name; the first of a name wins (a later generation's may differ, the rank need not be exact). */
function toolsOf(server: Scenario['server']): Map<string, ToolSpec> {
  const tools = new Map<string, ToolSpec>()
  for (const tool of server.tools ?? []) if (!tools.has(tool.name)) tools.set(tool.name, tool)
  return tools
}
