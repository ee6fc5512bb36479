/**
 * Every deadline of the bridge, its fixtures and its kit: a signal that aborts when its time is up
 * or when a parent signal aborts, whichever is first, and that cannot be garbage-collected before
 * it fires.
 *
 * Not `AbortSignal.any([AbortSignal.timeout(ms), parent])`: a timeout signal's timer holds it
 * only weakly, and a combined signal holds its sources only weakly too, so on Node 20 a forced or
 * busy garbage collection can take the timeout signal away while its combined signal is awaited;
 * it then never fires, and whatever waited on it (a server that hangs in initialize) waits forever.
 * Here the timer's callback holds the controller, and Node's timer list holds the timer until it
 * fires or is cleared: the deadline lives exactly as long as it is pending.
 */
export interface Deadline {
  /** Aborts with a `TimeoutError` (the reason AbortSignal.timeout gives) or with the parent's reason. */
  readonly signal: AbortSignal
  /** Stops the clock and lets go of the parents, leaving the signal as it is. Safe to call twice. */
  clear(): void
}

/** How a deadline tells that its own time ran out: the same reason AbortSignal.timeout gives. */
export function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'TimeoutError'
}

/**
 * A deadline `ms` from now that also follows `parents`. The caller clears it once the work it
 * bounds has settled: a cleared deadline holds no timer and no listener on its parents. By default
 * its timer does not keep the process alive (like AbortSignal.timeout's): what it bounds does.
 * `keepAlive` is for an outer bound, whose task may hang on nothing at all (a promise no event
 * will ever settle): the process must live to see the bound pass and report it.
 */
export function startDeadline(ms: number, parents: readonly AbortSignal[] = [], options: { keepAlive?: boolean } = {}): Deadline {
  const controller = new AbortController()
  const links: Array<{ parent: AbortSignal; listener: () => void }> = []
  let timer: NodeJS.Timeout | undefined
  const clear = () => {
    clearTimeout(timer)
    timer = undefined
    for (const { parent, listener } of links.splice(0)) parent.removeEventListener('abort', listener)
  }
  const abort = (reason: unknown) => {
    clear()
    controller.abort(reason)
  }
  for (const parent of parents) {
    if (parent.aborted) {
      abort(parent.reason)
      return { signal: controller.signal, clear }
    }
    const listener = () => abort(parent.reason)
    parent.addEventListener('abort', listener, { once: true })
    links.push({ parent, listener })
  }
  timer = setTimeout(() => abort(new DOMException(`the deadline of ${ms} ms passed`, 'TimeoutError')), ms)
  if (!options.keepAlive) timer.unref()
  return { signal: controller.signal, clear }
}

/**
 * `task`'s value, or `undefined` once `ms` have passed without it settling (a rejection is passed
 * on). The kit's outer bounds: whatever hangs inside, the caller is released on time.
 */
export async function withinDeadline<T>(task: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  const deadline = startDeadline(ms, [], { keepAlive: true })
  try {
    return await new Promise<{ value: T } | undefined>((resolve, reject) => {
      deadline.signal.addEventListener('abort', () => resolve(undefined), { once: true })
      task.then((value) => resolve({ value }), reject)
    })
  } finally {
    deadline.clear()
  }
}
