import { getEventListeners } from 'node:events'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { isTimeoutReason, startDeadline, withinDeadline } from '../src/index.ts'

// Garbage collection on demand, in this process: what `node --expose-gc` gives a script.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Settles when `signal` aborts, holding nothing but the listener the signal itself keeps. */
const aborted = (signal: AbortSignal) => new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }))

describe('startDeadline', () => {
  it('fires however often garbage is collected while it is pending, its signal referenced only by its waiter', async () => {
    // AbortSignal.any([AbortSignal.timeout(ms), parent]) lost its timeout signal to a collection
    // here on Node 20 and never fired: the waits below would run into the test's timeout.
    const parent = new AbortController()
    const reasons = Array.from({ length: 20 }, (_, i) => aborted(startDeadline(20 + i, [parent.signal]).signal))
    const collecting = setInterval(gc, 1)
    try {
      for (const reason of await Promise.all(reasons)) expect(isTimeoutReason(reason)).toBe(true)
    } finally {
      clearInterval(collecting)
    }
  })

  it('follows a parent: aborts with its reason, and lets go of it', async () => {
    const parent = new AbortController()
    const deadline = startDeadline(60_000, [parent.signal])
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1)
    parent.abort('disposed')
    expect(deadline.signal.reason).toBe('disposed')
    expect(isTimeoutReason(deadline.signal.reason)).toBe(false)
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0)
  })

  it('an already aborted parent aborts it at once', () => {
    const parent = new AbortController()
    parent.abort('gone')
    expect(startDeadline(60_000, [parent.signal]).signal.reason).toBe('gone')
  })

  it('cleared, it never fires and holds nothing on its parents', async () => {
    const parent = new AbortController()
    const deadline = startDeadline(1, [parent.signal])
    deadline.clear()
    deadline.clear()
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0)
    // Past its time by a margin that is only ever longer on a loaded machine: had it been armed, it would have fired.
    await new Promise((resolve) => setTimeout(resolve, 50))
    parent.abort('later')
    expect(deadline.signal.aborted).toBe(false)
  })
})

describe('withinDeadline', () => {
  it('gives the value of a task that settles in time, and passes a rejection on', async () => {
    expect(await withinDeadline(Promise.resolve(7), 60_000)).toEqual({ value: 7 })
    await expect(withinDeadline(Promise.reject(new Error('no')), 60_000)).rejects.toThrow('no')
  })

  it('releases the caller of a task that never settles, and keeps the process alive until then', async () => {
    // A promise nothing will ever settle: no timer, no socket, no child holds the event loop for it.
    const never = new Promise<never>(() => {})
    expect(await withinDeadline(never, 30)).toBeUndefined()
  })
})

/**
 * The rule, kept: no product source builds a deadline from AbortSignal.timeout, the signal its own
 * timer holds only weakly. (AbortSignal.any of signals their owners hold, a deadline's among them,
 * is no deadline of its own and stays allowed.)
 */
describe('every deadline is a startDeadline', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const sources = ['plugin/src', 'conformance/src', 'fixtures-server/src', 'process/src'].flatMap((dir) => files(join(root, dir)))

  it('no source outside deadline.ts calls AbortSignal.timeout', () => {
    expect(sources.length).toBeGreaterThan(50)
    const offenders = sources.filter((file) => !file.endsWith('process/src/deadline.ts') && /AbortSignal\s*\.\s*timeout\s*\(/.test(readFileSync(file, 'utf8')))
    expect(offenders).toEqual([])
  })
})

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })
}
