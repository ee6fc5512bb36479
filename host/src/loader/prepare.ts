import type { Plugin } from 'cordis'
import { resolvePlugin, type PluginSource } from './resolve.ts'
import { lineOfField, type Entry, type LoaderIssue } from './types.ts'
import { validateConfig } from './validate.ts'

export interface Prepared {
  /** Entries that can be applied: enabled ones with a plugin and a valid config, plus disabled ones. */
  usable: Entry[]
  /** The resolved plugin of each usable, enabled entry, by id. */
  plugins: Map<string, Plugin>
  errors: LoaderIssue[]
  /** Options the plugin's schema dropped, by entry id. */
  ignored: Map<string, LoaderIssue[]>
  /** Ids of entries that cannot be applied: whatever runs under them is left alone. */
  held: string[]
}

/**
 * Imports each enabled entry's plugin and checks its config against the plugin's schema, so that
 * nothing reaches Cordis that would fail validation there: an entry that cannot start is held,
 * never half-applied.
 */
export async function prepareEntries(entries: readonly Entry[], builtins: ReadonlyMap<string, PluginSource>): Promise<Prepared> {
  const prepared: Prepared = { usable: [], plugins: new Map(), errors: [], ignored: new Map(), held: [] }
  for (const entry of entries) {
    if (entry.disabled) {
      prepared.usable.push(entry)
      continue
    }
    const issue = (field: string | undefined, message: string): LoaderIssue => ({ entry: entry.id, field, line: lineOfField(field, entry.fieldLines, entry.line), message })
    const resolved = await resolvePlugin(entry.key, builtins)
    if (!resolved.ok) {
      prepared.errors.push(issue('name', resolved.message))
      prepared.held.push(entry.id)
      continue
    }
    const validation = validateConfig((resolved.plugin as { Config?: unknown }).Config, entry.config)
    if (!validation.ok) {
      prepared.errors.push(...validation.issues.map(({ field, message }) => issue(field, message)))
      prepared.held.push(entry.id)
      continue
    }
    const ignored = validation.ignored.map((field) => issue(field, 'is not an option of this plugin and was ignored'))
    if (ignored.length) prepared.ignored.set(entry.id, ignored)
    prepared.plugins.set(entry.id, resolved.plugin)
    prepared.usable.push(entry)
  }
  return prepared
}
