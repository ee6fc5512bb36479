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
  const links = parents.map((parent) => {
    const follow = () => controller.abort(parent.reason)
    if (parent.aborted) follow()
    else parent.addEventListener('abort', follow, { once: true })
    return () => parent.removeEventListener('abort', follow)
  })
  try {
    return await task(controller.signal)
  } finally {
    clearTimeout(timer)
    for (const unlink of links) unlink()
  }
}
