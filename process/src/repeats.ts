/**
 * What keeps coming up (a peer's failed deliveries, its invalid requests), counted per kind, so
 * that a log says it at the 1st, 10th, 100th, … time with the count so far: a flood from a peer
 * costs a few lines, not one per event.
 */
export class RepeatCounter {
  private readonly counts = new Map<string, number>()

  /** One more of `kind`: its count so far. */
  count(kind: string): number {
    const count = (this.counts.get(kind) ?? 0) + 1
    this.counts.set(kind, count)
    return count
  }
}

/** The 1st, 10th, 100th, … time: worth a line. */
export function isWorthSaying(count: number): boolean {
  return /^10*$/.test(String(count))
}
