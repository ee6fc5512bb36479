/**
 * Steps run one at a time, in the order they were handed in. A step's failure is its caller's
 * alone: the next step still runs, and the line itself never rejects.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(step: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(step)
    this.tail = run.catch(() => {})
    return run
  }

  /** Settles once every step handed in so far has; never rejects. */
  idle(): Promise<unknown> {
    return this.tail
  }
}
