import { watch } from 'node:fs'
import { basename, dirname } from 'node:path'
import { Debouncer, systemClock, type Clock } from '@mcp-bridge/process'

export interface WatchOptions {
  /** Quiet period after the last event before `onChange` runs. */
  debounceMs: number
  onChange(): void
  onError(error: Error): void
  clock?: Clock
}

/**
 * Watches one file for edits and calls `onChange` once per burst. The directory is watched, not
 * the file: editors that save by writing a new file and renaming it over the old one (vim, VS Code,
 * `sed -i`) replace the inode a file watch would be attached to. Returns the cleanup.
 */
export function watchFile(file: string, options: WatchOptions): () => void {
  const name = basename(file)
  const clock = options.clock ?? systemClock
  // A save is a burst of events (truncate, write, rename); a never-ending burst still reloads every 10 quiet periods.
  const debouncer = new Debouncer(clock, options.debounceMs, options.debounceMs * 10, () => options.onChange())
  const watcher = watch(dirname(file), { persistent: true }, (_event, changed) => {
    // Some platforms omit the name; reloading an unchanged file is a no-op anyway.
    if (changed === null || changed === name) debouncer.notify()
  })
  watcher.on('error', (error) => options.onError(error))
  return () => {
    debouncer.cancel()
    watcher.close()
  }
}
