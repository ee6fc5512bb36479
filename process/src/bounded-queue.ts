import { NOTHING_TO_RELEASE } from './abort-listeners.ts'

/**
 * At most `concurrency` tasks running, at most `capacity` waiting in order; a task that finds the
 * queue full is refused with `refuse()`, never started. A running task's turn ends when its
 * promise settles (for a POST: when the response's headers are in).
 */
export class BoundedQueue {
  private running = 0
  private readonly waiting: Array<() => void> = []
  private head = 0

  constructor(
    private readonly concurrency: number,
    private readonly capacity: number,
  ) {}

  async run<T>(task: () => Promise<T>, refuse: () => Error): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length - this.head >= this.capacity) throw refuse()
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else this.running += 1
    try {
      return await task()
    } finally {
      this.next()
    }
  }

  /** Hands the turn to the next task waiting, or gives it back. */
  private next(): void {
    if (this.head === this.waiting.length) {
      this.running -= 1
      return
    }
    const resolve = this.waiting[this.head]!
    // Let go of the resolver at once; the array is compacted only now and then.
    this.waiting[this.head++] = NOTHING_TO_RELEASE
    if (this.head === this.waiting.length || this.head > 1024) {
      this.waiting.splice(0, this.head)
      this.head = 0
    }
    resolve()
  }
}
