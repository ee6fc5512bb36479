import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { NEVER_ABORTED, onAbort } from '../src/abort-listeners.ts'

describe('onAbort', () => {
  it('puts one listener on a signal however many callbacks wait on it, and removes it with the last', () => {
    const controller = new AbortController()
    const releases = Array.from({ length: 50 }, () => onAbort(controller.signal, () => {}))
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    for (const release of releases.slice(1)) release()
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    releases[0]!()
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    // A later caller gets a fresh listener.
    let ran = 0
    onAbort(controller.signal, () => ran++)
    controller.abort()
    expect(ran).toBe(1)
  })

  it('runs every callback still registered, once, and none that was released', () => {
    const controller = new AbortController()
    const ran: number[] = []
    const releases = [0, 1, 2].map((n) => onAbort(controller.signal, () => ran.push(n)))
    releases[1]!()
    controller.abort()
    controller.abort()
    expect(ran).toEqual([0, 2])
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('runs at once on a signal that has already aborted', () => {
    let ran = false
    onAbort(AbortSignal.abort(), () => (ran = true))
    expect(ran).toBe(true)
  })

  it('follows the shared never-aborting signal without a listener or a kept callback', () => {
    const releases = Array.from({ length: 20 }, () => onAbort(NEVER_ABORTED, () => {}))
    expect(getEventListeners(NEVER_ABORTED, 'abort')).toHaveLength(0)
    expect(NEVER_ABORTED.aborted).toBe(false)
    for (const release of releases) release()
  })
})
