import { evaluateDuration } from './durations.ts'
import type { Scenario } from './scenario.ts'

/**
 * The outer bound on one scenario run: past it the run is a harness error, never a hang. It is
 * the sum of what the run may legitimately wait for, each term derived from the scenario's own
 * settings, plus an allowance for a loaded machine. Pure.
 *
 * The terms are generous on purpose: the bound exists to end a run that would otherwise never end
 * (a deadline that never fires, a client that never answers), never to judge a slow one; the
 * scenario's `timing` bounds do that.
 */

/** The client settings a run's waits derive from: the scenario's, over the client's defaults. */
export interface BoundSettings {
  connectTimeoutMs: number
  toolCallTimeoutMs: number
  maxTotalTimeoutMs: number
  killGraceMs: number
}

/** The kit's own bounds on a driven client's answers (timing.ts driverBounds: never below a timeout the scenario sets). */
export interface DriverBounds {
  connectMs: number
  listMs: number
  callMs: number
  closeMs: number
}

export interface RunBound {
  ms: number
  /** The teardown's dispose, once the run is over (or cut short). */
  disposeMs: number
  /** How the bound was reached, for the message that reports it: `start 2300 + steps 0 + …`. */
  terms: string
}

/** What the run itself does around the client: fixtures started and stopped, files read, processes checked. */
export const HARNESS_MS = 15_000
/** A loaded machine (two cores, other suites beside): every derived wait may take this much longer … */
export const LOAD_FACTOR = 2
/** … plus this. */
export const LOAD_ALLOWANCE_MS = 30_000
/** Past the settle window, how long a client may stay busy before the run calls it unsettled. */
export const SETTLE_SLACK_MS = 10_000
/** An HTTP fixture starting again, a SIGKILL landing, a tool registered: each a moment at most. */
const MOMENT_MS = 5_000
/** The plugin's closing of one session (session.ts): EOF, SIGTERM, then SIGKILL on the grace clock, with a margin. */
const closeMs = (settings: BoundSettings) => 3 * settings.killGraceMs + 2_000

/**
 * `client`: the scenario's client config; `defaults`: the client's settings where the scenario
 * sets none; `driver`: the kit's bounds when the client is driven (its own timeouts are then the
 * driver's business, and the kit bounds each request to it).
 */
export function scenarioBound(scenario: Pick<Scenario, 'client' | 'server' | 'steps' | 'settle' | 'expect'>, defaults: BoundSettings, driver?: DriverBounds): RunBound {
  const settings = settingsOf(scenario.client, defaults)
  const close = driver ? driver.closeMs : closeMs(settings)
  // The first attempt: its deadline, then the closing of what it started.
  const start = driver ? driver.connectMs + driver.listMs : settings.connectTimeoutMs + close
  // A second instance started and refused (a duplicate serverName): another start and close.
  const duplicate = scenario.expect.duplicateServerNameRejected !== undefined || scenario.expect.duplicateServerNameMessage !== undefined ? start + close : 0
  let steps = 0
  for (const step of scenario.steps) steps += stepMs(step, { settings, driver, close, client: scenario.client, server: scenario.server })
  const settle = scenario.settle === undefined ? 0 : durationMs(scenario.settle, scenario.client) + SETTLE_SLACK_MS
  // The reconnect budget is no term: reconnects run beside the steps and nothing of the run waits
  // them out. Activation waits for the first attempt only, a call while reconnecting fails at
  // once, a wait for a state is bounded by its timeoutMs, and a dispose aborts the attempt in flight.
  const derived = start + duplicate + steps + settle + close
  const ms = LOAD_FACTOR * derived + HARNESS_MS + LOAD_ALLOWANCE_MS
  const terms = `${LOAD_FACTOR} × (start ${start} + duplicate ${duplicate} + steps ${steps} + settle ${settle} + dispose ${close}) + harness ${HARNESS_MS} + load ${LOAD_ALLOWANCE_MS}`
  return { ms, terms, disposeMs: LOAD_FACTOR * close + HARNESS_MS }
}

interface StepContext {
  settings: BoundSettings
  driver: DriverBounds | undefined
  close: number
  client: Record<string, unknown>
  server: unknown
}

function stepMs(step: Scenario['steps'][number], { settings, driver, close, client, server }: StepContext): number {
  if ('call' in step) {
    // A driven call is cut at the kit's bound. Ours ends at toolCallTimeoutMs unless the server
    // keeps it alive with progress, or runs it as a task: then at the hard ceiling.
    if (driver) return driver.callMs
    return keptAlive(server, step.call.tool) ? settings.maxTotalTimeoutMs : settings.toolCallTimeoutMs
  }
  if ('wait' in step) {
    const { wait } = step
    if (wait.ms !== undefined) return wait.ms
    const quiet = wait.quiet === undefined ? 0 : durationMs(wait.quiet, client) + wait.timeoutMs
    return quiet + wait.timeoutMs
  }
  if ('dispose' in step) return close
  // The client's answer (a driven one's is bounded like a call), then the wait for its notification.
  if ('setRoots' in step) return (driver ? driver.callMs : MOMENT_MS) + step.setRoots.timeoutMs
  return MOMENT_MS
}

/** Whether any tool of that name, anywhere in the behaviour (its tools, a later generation's), sends progress or runs as a task. */
function keptAlive(value: unknown, tool: string): boolean {
  if (Array.isArray(value)) return value.some((item) => keptAlive(item, tool))
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  if (record.name === tool && (record.progress !== undefined || record.task !== undefined)) return true
  return Object.values(record).some((item) => keptAlive(item, tool))
}

/** The scenario's number at each setting, where it gives a positive one; the default elsewhere. */
export function settingsOf(client: Record<string, unknown>, defaults: BoundSettings): BoundSettings {
  return {
    connectTimeoutMs: positive(client.connectTimeoutMs) ?? defaults.connectTimeoutMs,
    toolCallTimeoutMs: positive(client.toolCallTimeoutMs) ?? defaults.toolCallTimeoutMs,
    maxTotalTimeoutMs: positive(client.maxTotalTimeoutMs) ?? defaults.maxTotalTimeoutMs,
    killGraceMs: positive(client.killGraceMs) ?? defaults.killGraceMs,
  }
}

/** A duration the scenario loader has validated; 0 if it somehow does not evaluate (the run reports that itself). */
function durationMs(duration: number | string, client: Record<string, unknown>): number {
  const value = evaluateDuration(duration, client)
  return 'ms' in value ? value.ms : 0
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined
}

/** The one-line harness error of a run cut at its bound. */
export function boundMessage(id: string, transport: string, bound: RunBound, at: string): string {
  return `scenario ${id} [${transport}] did not end within its outer bound of ${bound.ms} ms (${bound.terms}); it was cut short at ${at}, and its processes were stopped`
}
