import type { Clock } from '@mcp-bridge/process'

interface Timer {
  at: number
  ms: number
  callback: () => void
}

/** A clock that only moves when the test says so; it records every delay it was asked for. */
export class ManualClock implements Clock {
  private time = 0
  private timers = new Set<Timer>()
  readonly delays: number[] = []

  now(): number {
    return this.time
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { at: this.time + ms, ms, callback }
    this.timers.add(timer)
    this.delays.push(ms)
    return timer
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as Timer)
  }

  get pending(): number {
    return this.timers.size
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.time + ms
    for (;;) {
      const due = [...this.timers].filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      this.timers.delete(due)
      this.time = due.at
      due.callback()
    }
    this.time = target
  }
}
