import { dirname, resolve } from 'node:path'
import { InputFileError, readInputFile } from '@mcp-bridge/process'
import type { Context, Fiber, Logger, Plugin } from 'cordis'
import { diffEntries } from './diff.ts'
import { parseConfig } from './parse.ts'
import { prepareEntries } from './prepare.ts'
import { fileFailureLog, reloadLog, type LogLine } from './report.ts'
import { embeddedPlugins, type PluginSource } from './resolve.ts'
import { EntryRuntime } from './runtime.ts'
import type { LoaderIssue, ReloadResult } from './types.ts'
import { watchFile } from './watch.ts'

const DISPOSED = 'the loader was disposed'
/** A cordis.yml lists plugins and their options: a few kilobytes; this is far beyond any real one. */
export const MAX_CONFIG_BYTES = 1024 * 1024

export interface LoaderOptions {
  /** The cordis.yml file (relative paths are resolved against the process cwd). */
  file: string
  /** Where `!env` and `${NAME}` look values up; default `process.env`, read at every reload. */
  env?: Readonly<Record<string, string | undefined>>
  /** Reload when the file changes; default false. */
  watch?: boolean
  /** Quiet period after the last file event before reloading; default 100 ms. */
  debounceMs?: number
  /** Extra plugins entries may name, besides `@mcp-bridge/plugin` (alias `mcp-client`). */
  plugins?: Readonly<Record<string, Plugin>>
}

export interface LoadedEntry {
  id: string
  name: string
  config: unknown
  fiber: Fiber
  /** Why its last start failed; it is retried on the next reload. */
  error?: unknown
}

export interface ConfigLoader {
  /** Absolute path of the file. */
  readonly file: string
  /** The first load. Never rejects: problems are in the result (and in the log). */
  readonly ready: Promise<ReloadResult>
  /** Re-reads the file now, even if it did not change (retries entries whose start failed). */
  reload(): Promise<ReloadResult>
  /** Resolves with the result of the next reload that processes the file (watch or `reload()`). */
  nextReload(): Promise<ReloadResult>
  onReload(listener: (result: ReloadResult) => void): () => void
  entries(): LoadedEntry[]
  fiber(id: string): Fiber | undefined
  /** Stops watching and disposes every entry's instance. */
  dispose(): Promise<void>
}

/**
 * Runs the entries of a cordis.yml file as plugins under `ctx`, and keeps them in step with the
 * file. Everything it starts lives under one Cordis fiber, so disposing `ctx` also cleans it up.
 */
export function createLoader(ctx: Context, options: LoaderOptions): ConfigLoader {
  return new Loader(ctx, options)
}

class Loader implements ConfigLoader {
  readonly file: string
  readonly ready: Promise<ReloadResult>
  private readonly own: Fiber & PromiseLike<Fiber>
  private readonly log: Logger
  private readonly builtins: Map<string, PluginSource>
  private readonly listeners = new Set<(result: ReloadResult) => void>()
  private runtime?: EntryRuntime
  private queue: Promise<unknown> = Promise.resolve()
  private queued = false
  private lastText?: string
  private disposed = false

  constructor(ctx: Context, private readonly options: LoaderOptions) {
    this.file = resolve(options.file)
    this.log = ctx.logger('loader')
    this.builtins = embeddedPlugins(options.plugins)
    this.own = ctx.plugin({
      name: 'cordis-yml',
      apply: (scope: Context) => {
        this.runtime = new EntryRuntime(scope)
        scope.effect(() => () => {
          this.disposed = true
        }, 'cordis-yml:lifetime')
        if (options.watch) {
          const onError = (error: Error) => this.log.error('cannot watch %s, edits will not be applied: %s', options.file, error.message)
          scope.effect(() => {
            try {
              return watchFile(this.file, { debounceMs: options.debounceMs ?? 100, onChange: () => this.scheduleWatchReload(), onError })
            } catch (error) {
              // A missing directory must not fail the host: the load itself reports the missing file.
              onError(error as Error)
              return () => {}
            }
          }, 'cordis-yml:watch')
        }
      },
    })
    this.ready = Promise.resolve(this.own).then(() => this.reload())
  }

  reload(): Promise<ReloadResult> {
    return this.enqueue(true) as Promise<ReloadResult>
  }

  nextReload(): Promise<ReloadResult> {
    return new Promise((resolve) => {
      const off = this.onReload((result) => {
        off()
        resolve(result)
      })
    })
  }

  onReload(listener: (result: ReloadResult) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  entries(): LoadedEntry[] {
    return (this.runtime?.entries() ?? []).map(({ id, name, config }) => {
      const run = this.runtime!.get(id)!
      return { id, name, config, fiber: run.fiber, error: run.error }
    })
  }

  fiber(id: string): Fiber | undefined {
    return this.runtime?.get(id)?.fiber
  }

  async dispose(): Promise<void> {
    this.disposed = true
    await this.own.dispose()
  }

  /** Edits arrive in bursts; one queued reload covers every event that happens before it starts. */
  private scheduleWatchReload(): void {
    if (this.queued) return
    this.queued = true
    void this.enqueue(false)
  }

  /** Reloads run one at a time, in order; a reload never rejects (watch-triggered ones have no caller). */
  private enqueue(force: boolean): Promise<ReloadResult | undefined> {
    const run = this.queue
      .then(() => {
        if (!force) this.queued = false
        return this.run(force)
      })
      .catch((error: unknown) => {
        if (this.disposed) return this.finish(emptyResult(this.file, [], DISPOSED))
        this.log.error('reload of %s failed: %s', this.options.file, error instanceof Error ? (error.stack ?? error.message) : String(error))
        return this.finish(emptyResult(this.file, [], `the reload failed: ${error instanceof Error ? error.message : String(error)}`))
      })
    this.queue = run
    return run
  }

  private async run(force: boolean): Promise<ReloadResult | undefined> {
    const first = this.lastText === undefined
    const runtime = this.runtime
    if (this.disposed || !runtime) return this.finish(emptyResult(this.file, [], DISPOSED))
    let text: string
    try {
      // A FIFO, a device or a directory is refused at once, and so is a file past the cap (a
      // 120 MB file used to take minutes and gigabytes to parse).
      text = await readInputFile(this.file, { maxBytes: MAX_CONFIG_BYTES, what: 'the file' })
    } catch (error) {
      const reason = error instanceof InputFileError ? `the file ${error.reason}` : `cannot read the file: ${(error as Error).message}`
      return this.finish(this.fileFailure(runtime, { message: reason }))
    }
    // Editors emit several events per save, and saving without changes should not restart anything.
    if (!force && text === this.lastText) return undefined
    this.lastText = text

    const parsed = parseConfig(text, { baseDir: dirname(this.file), env: this.options.env ?? process.env, builtins: new Set(this.builtins.keys()) })
    if (!parsed.ok) return this.finish(this.fileFailure(runtime, parsed.error))
    const prepared = await prepareEntries(parsed.entries, this.builtins)
    if (this.disposed) return this.finish(emptyResult(this.file, [], DISPOSED))

    const held = new Set([...parsed.held, ...prepared.held])
    const plan = diffEntries(runtime.entries(), prepared.usable, { held, keepMissing: parsed.keepMissing, retry: runtime.failed() })
    const applied = await runtime.apply(plan, prepared.plugins)
    runtime.reorder(parsed.entries.map((entry) => entry.id))
    const touched = new Set(applied.touched)
    const errors = [...parsed.errors, ...prepared.errors, ...applied.errors]

    const result: ReloadResult = {
      file: this.file,
      ok: errors.length === 0,
      added: plan.add.map((entry) => entry.id),
      updated: plan.update.map((change) => change.id).filter((id) => touched.has(id)),
      removed: plan.remove.map((entry) => entry.id),
      unchanged: plan.unchanged.map((entry) => entry.id),
      held: [...held],
      disabled: parsed.entries.filter((entry) => entry.disabled).map((entry) => entry.id),
      errors,
      // A typo'd option is worth a warning when it takes effect, not on every reload.
      warnings: [...[...touched].flatMap((id) => prepared.ignored.get(id) ?? []), ...applied.warnings],
    }
    const running = new Set(runtime.entries().map((entry) => entry.id))
    this.write(reloadLog(result, plan, { file: this.options.file, first, running }))
    return this.finish(result)
  }

  /** The file as a whole is unusable: nothing changes, every running entry keeps running. */
  private fileFailure(runtime: EntryRuntime, error: LoaderIssue): ReloadResult {
    const running = runtime.entries().map((entry) => entry.id)
    this.write([fileFailureLog(error, this.options.file, running.length)])
    return { ...emptyResult(this.file, running), ok: false, errors: [error] }
  }

  private write(lines: readonly LogLine[]): void {
    // Messages are data, never format strings: a "%" in a path or value must print as is.
    for (const { level, text } of lines) this.log[level]('%s', text)
  }

  private finish(result: ReloadResult): ReloadResult {
    for (const listener of [...this.listeners]) {
      try {
        listener(result)
      } catch (error) {
        this.log.error('a reload listener threw: %s', error instanceof Error ? error.message : String(error))
      }
    }
    return result
  }
}

function emptyResult(file: string, unchanged: string[], error?: string): ReloadResult {
  return {
    file,
    ok: error === undefined,
    added: [],
    updated: [],
    removed: [],
    unchanged,
    held: [],
    disabled: [],
    errors: error === undefined ? [] : [{ message: error }],
    warnings: [],
  }
}
