import type { ReadResult } from './resources.ts'

/**
 * Reads of one session held while a 2026-07-28 server's cache hint says they are fresh. The
 * caching rules (server/utilities/caching) list `resources/read` among the results that carry
 * `ttlMs`, and key a cached response by "the request method together with the request parameters
 * that affect the result (for example, the `uri` for `resources/read`)": the URI is the key here.
 * "When a relevant notification is received while a cached response is still fresh, the
 * notification invalidates the cached response": an update of the URI drops it (`drop`).
 *
 * Bounded: at most `maxEntries` URIs and `maxBytes` of contents in all (the oldest go first), so
 * a server cannot make the host hold more than one result's worth of reads beyond what it asks.
 * Pure, apart from the clock readings its caller passes in.
 */
export class ReadCache {
  private readonly entries = new Map<string, { read: ReadResult; bytes: number; freshUntil: number }>()
  private bytes = 0

  constructor(
    private readonly maxBytes: number,
    private readonly maxEntries = 64,
  ) {}

  /** The held read of `uri` while it is fresh at `now`; a stale one is let go. */
  get(uri: string, now: number): ReadResult | undefined {
    const entry = this.entries.get(uri)
    if (!entry) return undefined
    if (entry.freshUntil > now) return entry.read
    this.drop(uri)
    return undefined
  }

  /** Holds `read` until `freshUntil` (clock time); one that could never fit is not held. */
  put(uri: string, read: ReadResult, bytes: number, freshUntil: number): void {
    this.drop(uri)
    if (bytes > this.maxBytes || this.maxEntries < 1) return
    while (this.entries.size >= this.maxEntries || this.bytes + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string
      this.drop(oldest)
    }
    this.entries.set(uri, { read, bytes, freshUntil })
    this.bytes += bytes
  }

  drop(uri: string): void {
    const entry = this.entries.get(uri)
    if (!entry) return
    this.entries.delete(uri)
    this.bytes -= entry.bytes
  }

  clear(): void {
    this.entries.clear()
    this.bytes = 0
  }

  get size(): number {
    return this.entries.size
  }
}
