import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { NEVER_ABORTED } from '@mcp-bridge/process'
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

  it('keeps following a caller between its calls, and lets go of it for another caller or once aborted', () => {
    const caller = new AbortController()
    const first = new CallScope(caller.signal, CEILING_MS, 'ceiling')
    first.release()
    first.release()
    // The spare keeps its one listener on the caller, so the caller's next call adds none.
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1)
    const again = new CallScope(caller.signal, CEILING_MS, 'ceiling')
    expect(again.signal).toBe(first.signal)
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1)
    again.release()
    // Another caller takes the spare over: the first caller is let go of.
    const other = new AbortController()
    const elsewhere = new CallScope(other.signal, CEILING_MS, 'ceiling')
    expect(elsewhere.signal).toBe(first.signal)
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0)
    // One recycled signal goes to one call only.
    expect(new CallScope(other.signal, CEILING_MS, 'ceiling').signal).not.toBe(elsewhere.signal)
    elsewhere.release()
    // The caller aborts while the spare waits: the spare aborts with it, and is never handed on.
    other.abort()
    expect(first.signal.aborted).toBe(true)
    const fresh = new CallScope(NEVER_ABORTED, CEILING_MS, 'ceiling')
    expect([fresh.signal.aborted, fresh.signal === first.signal]).toEqual([false, false])
  })
})
