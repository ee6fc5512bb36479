import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { NEVER_ABORTED } from '../src/abort-listeners.ts'
import { CallScope } from '../src/abort-scope.ts'

const CEILING_MS = 60_000

/** What the SDK does with a request's signal: one listener, never removed. */
function sdkRequest(signal: AbortSignal): { cancelled: () => number } {
  let cancelled = 0
  signal.addEventListener('abort', () => cancelled++)
  return { cancelled: () => cancelled }
}

describe('CallScope: one signal per call, recycled once the call has settled (issue 40)', () => {
  it('hands a settled call\'s signal to the next call, without the listener the SDK left on it', () => {
    const first = new CallScope(NEVER_ABORTED, CEILING_MS, 'ceiling')
    const earlier = sdkRequest(first.signal)
    first.release()
    expect(getEventListeners(first.signal, 'abort')).toHaveLength(0)
    const caller = new AbortController()
    const second = new CallScope(caller.signal, CEILING_MS, 'ceiling')
    expect(second.signal).toBe(first.signal)
    const later = sdkRequest(second.signal)
    // The caller aborts the second call: the first, answered long ago, hears nothing of it.
    caller.abort('stop')
    expect(second.signal.aborted).toBe(true)
    expect(second.signal.reason).toBe('stop')
    expect([earlier.cancelled(), later.cancelled()]).toEqual([0, 1])
    second.release()
  })

  it('never hands on a signal that aborted, by the caller or by the ceiling', async () => {
    const caller = new AbortController()
    const aborted = new CallScope(caller.signal, CEILING_MS, 'ceiling')
    caller.abort()
    aborted.release()
    expect(new CallScope(NEVER_ABORTED, CEILING_MS, 'ceiling').signal).not.toBe(aborted.signal)

    const ceiling = new CallScope(NEVER_ABORTED, 0, 'over the ceiling')
    ceiling.onProgress()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect([ceiling.signal.aborted, ceiling.ceilingReached, ceiling.signal.reason]).toEqual([true, true, 'over the ceiling'])
    ceiling.release()
    for (let i = 0; i < 3; i++) expect(new CallScope(NEVER_ABORTED, CEILING_MS, 'ceiling').signal.aborted).toBe(false)
  })

  it('stops following the caller once released, and releases once however often it is asked', () => {
    const caller = new AbortController()
    const scope = new CallScope(caller.signal, CEILING_MS, 'ceiling')
    scope.release()
    scope.release()
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0)
    const next = new CallScope(NEVER_ABORTED, CEILING_MS, 'ceiling')
    const other = new CallScope(NEVER_ABORTED, CEILING_MS, 'ceiling')
    // One recycled signal goes to one call only.
    expect(other.signal).not.toBe(next.signal)
    caller.abort()
    expect(next.signal.aborted).toBe(false)
  })
})
