import { availableParallelism } from 'node:os'

/**
 * Runs tasks at most `jobs` at a time, started in the items' order, results in that order too
 * (never the order they finished in), so a report does not depend on how many ran at once.
 *
 * An item `alone` says must have the process to itself (it changes process-wide state, such as
 * process.env) starts once every earlier one has ended, and nothing starts until it has ended.
 *
 * A task that throws stops new starts; the ones running are awaited before the first error is
 * thrown, so nothing they started is left running behind the caller. With jobs 1 this is a
 * plain loop, one item after another.
 */
export async function runPool<T, R>(items: readonly T[], jobs: number, alone: (item: T) => boolean, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`jobs must be a whole number of at least 1, not ${jobs}`)
  const results: R[] = new Array<R>(items.length)
  let next = 0
  let running = 0
  let exclusive = false
  let failure: { error: unknown } | undefined
  return new Promise<R[]>((resolve, reject) => {
    const pump = () => {
      if (running === 0 && (failure || next === items.length)) return failure ? reject(failure.error) : resolve(results)
      while (!failure && !exclusive && next < items.length && running < jobs) {
        const index = next
        const item = items[index] as T
        const solo = alone(item)
        if (solo && running > 0) return
        next++
        running++
        exclusive = solo
        // A task that throws synchronously is a failure like a rejection: wrapped, never lost.
        void Promise.resolve()
          .then(() => task(item, index))
          .then(
            (result) => {
              results[index] = result
            },
            (error: unknown) => {
              failure ??= { error }
            },
          )
          .finally(() => {
            running--
            if (solo) exclusive = false
            pump()
          })
      }
    }
    pump()
  })
}

/** The most scenario runs --jobs allows at once: each starts processes and sockets of its own. */
export const MAX_JOBS = 32

/** The default's ceiling: more runs at once on a large machine would mostly press on each other's timing bounds; --jobs asks for more. */
export const DEFAULT_JOBS_CAP = 4

/**
 * Runs per core when --jobs is not given. A run mostly waits on the processes and sockets it
 * starts: one at a time, the kit kept 0.75 of a core busy, so one run per core left a quarter of
 * the machine idle (measured on 2 cores: the default took 0.61x the serial run's time, two runs
 * per core 0.48x, with the same verdicts).
 */
export const DEFAULT_JOBS_PER_CORE = 2

/** --jobs when not given: two runs per core, at most DEFAULT_JOBS_CAP. */
export function defaultJobs(cores = availableParallelism()): number {
  return Math.max(1, Math.min(cores * DEFAULT_JOBS_PER_CORE, DEFAULT_JOBS_CAP))
}
