import { getEventListeners } from 'node:events'
import { onAbort } from '@mcp-bridge/process'

/**
 * A call's controller and its link to the caller's signal. Building an AbortSignal costs 3-15 µs
 * on Node 20, and linking it to a caller's signal (a listener added, then removed) a few more:
 * together most of an echo call's own cost over stdio. Every call needs a signal of its
 * own for the SDK (the ceiling, and the caller's abort without the SDK's listener left on the
 * caller's signal), so a call that ended without aborting leaves its controller here, still
 * following its caller's signal, for the next call to take: one from the same caller keeps the
 * link too. Bounded: a burst of concurrent calls leaves at most MAX_IDLE behind, so at most that
 * many callers' signals keep a listener of ours (one each) between calls.
 */
interface Linked {
  controller: AbortController
  parent: AbortSignal
  unlink: () => void
}

const idle: Linked[] = []
const MAX_IDLE = 64

/** A live controller following `parent`: a recycled one where there is one, its link kept when it already follows `parent`. */
function linked(parent: AbortSignal): Linked {
  const spare = idle.pop()
  // Aborted only if this caller has aborted, as a new scope following it would be at once.
  if (spare?.parent === parent) return spare
  spare?.unlink()
  // A spare whose caller aborted while it waited has aborted with it: it goes.
  const controller = spare && !spare.controller.signal.aborted ? spare.controller : new AbortController()
  return { controller, parent, unlink: onAbort(parent, () => controller.abort(parent.reason)) }
}

/**
 * The scope of one tools/call: follows the caller's signal until released, and aborts itself at
 * a hard ceiling that holds even while progress keeps pushing the SDK's own timeout back.
 *
 * The ceiling's timer is armed by the first progress notification, not at the start: without
 * progress the SDK's timeout (toolCallTimeoutMs, never above the ceiling) ends the call first,
 * so most calls never need a timer of their own (a setTimeout and a clearTimeout saved per call).
 *
 * Its signal is a recycled one where it can be (see `idle`): the request it was handed to has
 * settled by `release`, so no listener is left on it then and no later abort of the signal reaches
 * that request. A signal that aborted is never used again.
 */
export class CallScope {
  readonly signal: AbortSignal
  /** Set when the ceiling, not the caller, aborted the call. */
  ceilingReached = false
  private readonly link: Linked
  private readonly started = performance.now()
  private timer?: NodeJS.Timeout
  private released = false

  constructor(
    parent: AbortSignal,
    private readonly ceilingMs: number,
    private readonly ceilingReason: string,
  ) {
    this.link = linked(parent)
    this.signal = this.link.controller.signal
  }

  /** For the SDK's `onprogress`: the first progress arms the ceiling for the time that is left. */
  readonly onProgress = (): void => {
    if (this.timer !== undefined || this.released) return
    const left = Math.max(0, this.ceilingMs - (performance.now() - this.started))
    this.timer = setTimeout(() => {
      this.ceilingReached = true
      this.link.controller.abort(this.ceilingReason)
    }, left).unref()
  }

  /** Once the request has settled; a second call does nothing. */
  release(): void {
    if (this.released) return
    this.released = true
    clearTimeout(this.timer)
    const { signal, link } = this
    if (signal.aborted || idle.length >= MAX_IDLE) return link.unlink()
    // The SDK has removed its own listener by now (2.4.0 does, once the request settles); an SDK
    // that leaves it must not reach the request this signal serves next.
    for (const listener of getEventListeners(signal, 'abort')) signal.removeEventListener('abort', listener as (event: Event) => void)
    idle.push(link)
  }
}
