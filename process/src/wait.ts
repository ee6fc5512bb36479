import { onAbort } from './abort-listeners.ts'

/** Settles when `task` settles or `ms` pass, whichever is first; never rejects, leaves no timer. */
export async function waitAtMost(task: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([task.catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))])
  } finally {
    clearTimeout(timer)
  }
}

/** True when `task` settled (either way) within `ms`, false when the time ran out first. */
export async function settlesWithin(task: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false
  await waitAtMost(
    task.finally(() => (settled = true)),
    ms,
  )
  return settled
}

/**
 * `task`, or a rejection with `reason()` as soon as `signal` aborts, whichever is first. For
 * awaits inside a library that does not honour the signal everywhere: the caller is released on
 * time, and `task` is left to settle (or be torn down) on its own.
 */
export function untilAborted<T>(task: Promise<T>, signal: AbortSignal, reason: () => unknown): Promise<T> {
  if (signal.aborted) {
    task.catch(() => {})
    return Promise.reject(reason())
  }
  return new Promise<T>((resolve, reject) => {
    const release = onAbort(signal, () => {
      task.catch(() => {})
      reject(reason())
    })
    task.then(resolve, reject).finally(release)
  })
}
