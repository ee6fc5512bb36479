import { onAbort } from './abort-listeners.ts'

/**
 * A signal that follows its parents only until released. The SDK never removes the abort
 * listener it puts on a request's signal, so a long-lived signal (the plugin's dispose signal, a
 * caller's turn signal) aborting later would send notifications/cancelled for requests that were
 * answered long ago. Each request gets a scope, released as soon as the request settles.
 */
export async function withAbortScope<T>(parents: AbortSignal[], task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  // One listener per parent however many scopes follow it (see abort-listeners.ts).
  const links = parents.map((parent) => onAbort(parent, () => controller.abort(parent.reason)))
  try {
    return await task(controller.signal)
  } finally {
    for (const unlink of links) unlink()
  }
}

/**
 * The scope of one tools/call: follows the caller's signal until released, and aborts itself at
 * a hard ceiling that holds even while progress keeps pushing the SDK's own timeout back.
 *
 * The ceiling's timer is armed by the first progress notification, not at the start: without
 * progress the SDK's timeout (toolCallTimeoutMs, never above the ceiling) ends the call first,
 * so most calls never need a timer of their own (a setTimeout and a clearTimeout saved per call).
 */
export class CallScope {
  readonly signal: AbortSignal
  /** Set when the ceiling, not the caller, aborted the call. */
  ceilingReached = false
  private readonly controller = new AbortController()
  private readonly unlink: () => void
  private readonly started = performance.now()
  private timer?: NodeJS.Timeout
  private released = false

  constructor(
    parent: AbortSignal,
    private readonly ceilingMs: number,
    private readonly ceilingReason: string,
  ) {
    this.signal = this.controller.signal
    this.unlink = onAbort(parent, () => this.controller.abort(parent.reason))
  }

  /** For the SDK's `onprogress`: the first progress arms the ceiling for the time that is left. */
  readonly onProgress = (): void => {
    if (this.timer !== undefined || this.released) return
    const left = Math.max(0, this.ceilingMs - (performance.now() - this.started))
    this.timer = setTimeout(() => {
      this.ceilingReached = true
      this.controller.abort(this.ceilingReason)
    }, left).unref()
  }

  release(): void {
    this.released = true
    clearTimeout(this.timer)
    this.unlink()
  }
}
