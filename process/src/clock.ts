/** Time as the supervisor sees it; tests inject a manual clock to drive backoff deterministically. */
export interface Clock {
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  /** Also called with `undefined` (nothing pending), which must do nothing. */
  clearTimeout(handle: unknown): void
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}
