import * as cordis from 'cordis'
import type { Context, Fiber, Plugin } from 'cordis'
import type { Plan } from './diff.ts'
import type { Entry, LoaderIssue } from './types.ts'

/**
 * Cordis exports `FiberState` at run time, but types it as an ambient const enum, which isolated
 * transpilers (verbatimModuleSyntax) cannot inline: its members are read by name from the export,
 * never written down as numbers.
 */
const FiberState = (cordis as unknown as { FiberState?: Record<'LOADING' | 'UNLOADING', number> }).FiberState!
if (typeof FiberState?.LOADING !== 'number' || typeof FiberState.UNLOADING !== 'number') {
  // Said at load time, not found out as a loader that never waits for its entries.
  throw new Error('cordis no longer exports FiberState.LOADING and UNLOADING at run time: the cordis.yml loader needs them')
}

export interface RunningEntry {
  entry: Entry
  fiber: Fiber & PromiseLike<Fiber>
  /** Why the last start failed; the fiber stays owned (and is retried on the next reload). */
  error?: unknown
}

export interface ApplyOutcome {
  errors: LoaderIssue[]
  warnings: LoaderIssue[]
  /** Ids whose update or start actually ran, in the order they were applied. */
  touched: string[]
}

/**
 * The fibers the loader owns, and the I/O half of a reload: carrying out a plan on a Cordis scope.
 * Every fiber is a child of `scope`, so disposing the scope's own fiber disposes them all.
 */
export class EntryRuntime {
  private readonly running = new Map<string, RunningEntry>()

  constructor(private readonly scope: Context) {}

  get(id: string): RunningEntry | undefined {
    return this.running.get(id)
  }

  entries(): Entry[] {
    return [...this.running.values()].map((run) => run.entry)
  }

  failed(): Set<string> {
    return new Set([...this.running].filter(([, run]) => run.error !== undefined).map(([id]) => id))
  }

  /** Keeps listing order equal to file order. */
  reorder(ids: readonly string[]): void {
    const rank = new Map(ids.map((id, index) => [id, index]))
    const sorted = [...this.running].sort(([a], [b]) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity))
    this.running.clear()
    for (const [id, run] of sorted) this.running.set(id, run)
  }

  /**
   * Removals first, so a serverName (or any other exclusive resource) freed by a removed or renamed
   * entry is free before anything new starts; then updates; then additions, every one registered
   * before any is awaited (a fiber waiting for a missing service would otherwise resolve at once).
   */
  async apply(plan: Plan, plugins: ReadonlyMap<string, Plugin>): Promise<ApplyOutcome> {
    const outcome: ApplyOutcome = { errors: [], warnings: [], touched: [] }
    const replaced = plan.update.filter((change) => change.kind === 'replace')
    const updated = plan.update.filter((change) => change.kind !== 'replace')

    await Promise.all(
      [...plan.remove.map((entry) => entry.id), ...replaced.map((change) => change.id)].map(async (id) => {
        const run = this.running.get(id)
        this.running.delete(id)
        await run?.fiber.dispose().catch((error: unknown) => outcome.warnings.push(issue(id, `did not stop cleanly: ${describe(error)}`)))
      }),
    )

    await Promise.all(
      updated.map(async ({ id, after }) => {
        const run = this.running.get(id)!
        let restarted: unknown
        try {
          // Cordis validates synchronously and only then tears the old instance down.
          restarted = run.fiber.update(after.config)
        } catch (error) {
          outcome.errors.push(issue(id, `config rejected, kept the running instance: ${describe(error)}`))
          return
        }
        run.entry = after
        outcome.touched.push(id)
        try {
          await restarted
          run.error = undefined
        } catch (error) {
          run.error = error
          outcome.errors.push(issue(id, `failed to restart with the new config: ${describe(error)}`))
        }
      }),
    )

    const started = [...plan.add, ...replaced.map((change) => change.after)].map((entry) => {
      const fiber = this.scope.plugin(plugins.get(entry.id)!, entry.config)
      const run: RunningEntry = { entry, fiber }
      this.running.set(entry.id, run)
      outcome.touched.push(entry.id)
      return run
    })
    await settle(started.map((run) => run.fiber))
    for (const run of started) {
      try {
        await run.fiber.await()
      } catch (error) {
        run.error = error
        outcome.errors.push(issue(run.entry.id, `failed to start: ${describe(error)}`))
      }
    }

    for (const id of outcome.touched) {
      const fiber = this.running.get(id)?.fiber
      if (!fiber) continue
      // Asked the way a plugin would: which of the services it injects does the scope not provide?
      const missing = Object.keys(fiber.inject).filter((name) => this.scope.get(name) === undefined)
      if (missing.length === 0) continue
      outcome.warnings.push(issue(id, `is waiting for service(s) ${missing.join(', ')}: it starts when they are provided`))
    }
    return outcome
  }

  async disposeAll(): Promise<void> {
    const runs = [...this.running.values()]
    this.running.clear()
    await Promise.allSettled(runs.map((run) => run.fiber.dispose()))
  }
}

/**
 * Waits until no fiber is starting or stopping. One round is not enough: awaiting a fiber that
 * waits for a service returns at once, and it only starts once another entry provides that service.
 */
async function settle(fibers: readonly Fiber[]): Promise<void> {
  const busy = () => fibers.some((fiber) => fiber.state === FiberState.LOADING || fiber.state === FiberState.UNLOADING)
  do await Promise.allSettled(fibers.map((fiber) => fiber.await()))
  while (busy())
}

function issue(entry: string, message: string): LoaderIssue {
  return { entry, message }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
