import { onAbort } from './abort-listeners.ts'

/**
 * A signal that follows its parents only until released. The SDK never removes the abort
 * listener it puts on a request's signal, so a long-lived signal (the plugin's dispose signal, a
 * caller's turn signal) aborting later would send notifications/cancelled for requests that were
 * answered long ago. Each request gets a scope, released as soon as the request settles.
 */
export async function withAbortScope<T>(
  parents: AbortSignal[],
  task: (signal: AbortSignal) => Promise<T>,
  ceiling?: { ms: number; reason: string },
): Promise<T> {
  const controller = new AbortController()
  const timer = ceiling && setTimeout(() => controller.abort(ceiling.reason), ceiling.ms).unref()
  // One listener per parent however many scopes follow it (see abort-listeners.ts).
  const links = parents.map((parent) => onAbort(parent, () => controller.abort(parent.reason)))
  try {
    return await task(controller.signal)
  } finally {
    clearTimeout(timer)
    for (const unlink of links) unlink()
  }
}
