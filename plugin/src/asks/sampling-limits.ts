/**
 * The caps on one server's sampling requests over time: at most `perMinute` taken in any 60
 * seconds and `concurrent` answered at once. Past either, a request is refused at once rather
 * than queued, so a flood costs the host nothing but the refusals. Pure apart from the clock
 * it is handed.
 */

export const WINDOW_MS = 60_000

export type Admission = { ok: true; release(): void } | { ok: false; why: string }

export class SamplingLimits {
  private readonly starts: number[] = []
  private active = 0

  constructor(
    private readonly caps: { requestsPerMinute: number; maxConcurrent: number },
    private readonly now: () => number = Date.now,
  ) {}

  admit(): Admission {
    const now = this.now()
    while (this.starts.length > 0 && this.starts[0]! <= now - WINDOW_MS) this.starts.shift()
    if (this.active >= this.caps.maxConcurrent) return { ok: false, why: `${this.caps.maxConcurrent} sampling request(s) are already being answered (sampling.maxConcurrent)` }
    if (this.starts.length >= this.caps.requestsPerMinute) return { ok: false, why: `more than ${this.caps.requestsPerMinute} sampling request(s) within a minute (sampling.requestsPerMinute)` }
    this.starts.push(now)
    this.active++
    let released = false
    return {
      ok: true,
      release: () => {
        if (released) return
        released = true
        this.active--
      },
    }
  }
}
