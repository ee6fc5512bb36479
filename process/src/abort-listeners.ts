/**
 * Abort callbacks on a signal that many operations share (a session's signal, a caller's turn
 * signal, the plugin's dispose signal). Each of them used to add its own listener, and Node warns
 * (MaxListenersExceededWarning) past 10 on one signal: any 11 concurrent calls. Here every signal
 * carries at most one listener of ours, which fans out to the callbacks registered at that moment
 * and is removed with the last of them.
 */
interface Fanout {
  callbacks: Set<() => void>
  listener: () => void
}

const fanouts = new WeakMap<AbortSignal, Fanout>()

/**
 * A signal that never aborts: its controller is private to this module and never used. Callers
 * without a signal of their own share it (the reference registry passes it when a host gives
 * none), and following it costs nothing: no listener is added, no callback kept.
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal
/** A release with nothing to let go of. */
export const NOTHING_TO_RELEASE = (): void => {}

/**
 * Runs `callback` once when `signal` aborts (at once, synchronously, if it already has); returns
 * the unregistration, which callers run as soon as they no longer care.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal === NEVER_ABORTED) return NOTHING_TO_RELEASE
  if (signal.aborted) {
    callback()
    return () => {}
  }
  let fanout = fanouts.get(signal)
  if (!fanout) {
    const callbacks = new Set<() => void>()
    const listener = () => {
      fanouts.delete(signal)
      for (const run of [...callbacks]) run()
    }
    fanout = { callbacks, listener }
    fanouts.set(signal, fanout)
    signal.addEventListener('abort', listener, { once: true })
  }
  const own = fanout
  own.callbacks.add(callback)
  return () => {
    if (!own.callbacks.delete(callback) || own.callbacks.size > 0 || fanouts.get(signal) !== own) return
    // The last callback went: so does the one listener; a later caller adds a fresh one.
    fanouts.delete(signal)
    signal.removeEventListener('abort', own.listener)
  }
}

/**
 * `task` under a signal of its own that follows `parents` only until the task settles: a
 * long-lived parent (a plugin's dispose signal, a caller's turn signal) holds one listener of ours
 * however many tasks follow it at once, and none of the task's own (the MCP SDK adds one per
 * request to the signal it is handed).
 */
export async function withAbortScope<T>(parents: AbortSignal[], task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  const links = parents.map((parent) => onAbort(parent, () => controller.abort(parent.reason)))
  try {
    return await task(controller.signal)
  } finally {
    for (const unlink of links) unlink()
  }
}
