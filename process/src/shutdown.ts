import { constants } from 'node:os'
import { killEverything, registry } from './registry.ts'

/** How long graceful stops may take after SIGINT/SIGTERM before everything left is killed. */
export const DEFAULT_SIGNAL_GRACE_MS = 5_000

const SIGNALS = ['SIGINT', 'SIGTERM'] as const
type StopSignal = (typeof SIGNALS)[number]

interface Handling {
  users: number
  graceMs: number
  onSignal?: (signal: StopSignal) => void
  stopping: boolean
  listeners: Map<StopSignal, () => void>
}

const KEY = Symbol.for('@mcp-bridge/process.signals')

/**
 * Registers a graceful stop (dispose a host, close a server) to run on SIGINT or SIGTERM while
 * signal handling is installed; returns the unregistration.
 */
export function onShutdown(stop: () => unknown): () => void {
  const { stoppers } = registry()
  stoppers.add(stop)
  return () => void stoppers.delete(stop)
}

export interface SignalOptions {
  /** Bound on the graceful stops; then every tracked group is killed. Default 5 s. */
  graceMs?: number
  /** Told first (a CLI says what it is doing on stderr). */
  onSignal?: (signal: StopSignal) => void
}

/**
 * Makes SIGINT and SIGTERM stop this process the way a process that owns servers must: run every
 * registered graceful stop (bounded by `graceMs`), SIGKILL every process group still tracked,
 * remove tracked temp directories, and exit with 128 + the signal's number (130, 143). A second
 * signal skips what is left of the graceful part. Installed once however many callers ask (a CLI,
 * each host); the returned function uninstalls this caller's share, and the last one restores
 * Node's default (which is to die at once: the watchdogs then clean up).
 */
export function handleSignals(options: SignalOptions = {}): () => void {
  const global = globalThis as { [KEY]?: Handling }
  global[KEY] ??= { users: 0, graceMs: DEFAULT_SIGNAL_GRACE_MS, stopping: false, listeners: new Map() }
  const handling = global[KEY]
  handling.users++
  if (options.graceMs !== undefined) handling.graceMs = options.graceMs
  if (options.onSignal) handling.onSignal = options.onSignal
  if (handling.users === 1) {
    for (const signal of SIGNALS) {
      const listener = () => void stopOn(signal, handling)
      handling.listeners.set(signal, listener)
      process.on(signal, listener)
    }
  }
  let released = false
  return () => {
    if (released) return
    released = true
    handling.users--
    if (handling.users > 0) return
    for (const [signal, listener] of handling.listeners) process.off(signal, listener)
    handling.listeners.clear()
    handling.onSignal = undefined
  }
}

/** 130 for SIGINT, 143 for SIGTERM: what a shell reports for a process killed by the signal. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0)
}

async function stopOn(signal: StopSignal, handling: Handling): Promise<void> {
  const code = signalExitCode(signal)
  if (handling.stopping) exitNow(code)
  handling.stopping = true
  handling.onSignal?.(signal)
  const stops = [...registry().stoppers].map(async (stop) => stop())
  let timer: NodeJS.Timeout | undefined
  const bound = new Promise((resolve) => (timer = setTimeout(resolve, handling.graceMs)))
  await Promise.race([Promise.allSettled(stops), bound])
  clearTimeout(timer)
  exitNow(code)
}

function exitNow(code: number): never {
  killEverything()
  process.exit(code)
}
