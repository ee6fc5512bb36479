import type { Clock } from './clock.ts'

/**
 * Coalesces bursts: `fire` runs `debounceMs` after the last `notify`, but never later than
 * `maxWaitMs` after the first notify of a burst, so a storm that never pauses still converges.
 */
export class Debouncer {
  private timer: unknown
  private burstStart?: number

  constructor(
    private readonly clock: Clock,
    private readonly debounceMs: number,
    private readonly maxWaitMs: number,
    private readonly fire: () => void,
  ) {}

  notify(): void {
    const now = this.clock.now()
    this.burstStart ??= now
    const wait = Math.max(0, Math.min(this.debounceMs, this.burstStart + this.maxWaitMs - now))
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined
      this.burstStart = undefined
      this.fire()
    }, wait)
  }

  cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.burstStart = undefined
  }
}
