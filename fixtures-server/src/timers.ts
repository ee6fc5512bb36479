type Timer = ReturnType<typeof setTimeout>

/**
 * Every timer a fixture sets, so a crash or close stops its whole script at once. After `stop()`
 * nothing new is scheduled: a fixture that has "exited" must not keep acting.
 */
export class Timers {
  private readonly pending = new Set<Timer>()
  private stopped = false

  get isStopped(): boolean {
    return this.stopped
  }

  schedule(ms: number, run: () => void): Timer | undefined {
    if (this.stopped) return undefined
    const timer = setTimeout(() => {
      this.pending.delete(timer)
      run()
    }, ms)
    this.pending.add(timer)
    return timer
  }

  /**
   * Resolves after `ms`, or as soon as `signal` aborts (the caller checks which). The abort
   * listener goes as soon as the sleep ends either way: a long-lived signal (a session's) that
   * outlives thousands of sleeps must not collect a listener per sleep.
   */
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve()
      const onAbort = () => {
        if (timer) this.cancel(timer)
        resolve()
      }
      const timer = this.schedule(ms, () => {
        signal.removeEventListener('abort', onAbort)
        resolve()
      })
      // A stopped fixture schedules nothing, and its sleeps never end by the clock (a progress
      // loop must not spin on): only the abort ends them.
      signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  stop(): void {
    this.stopped = true
    for (const timer of this.pending) clearTimeout(timer)
    this.pending.clear()
  }

  private cancel(timer: Timer): void {
    clearTimeout(timer)
    this.pending.delete(timer)
  }
}
