/**
 * Pure: which of a server's listed tools an operator lets through. A 40-tool server in front of a
 * model that gets worse with every tool is the common case, so the filter is applied to the raw
 * list before naming and registration: a filtered tool is never registered, hence never called,
 * and the public names of the others do not move (a public name depends on its own raw name only).
 */

import type { ToolFilterConfig } from './config-schema.ts'
import { matchesGlob } from '@mcp-bridge/process'
import { MAX_RAW_NAME_CHARS } from './naming.ts'

export interface FilteredTools {
  kept: unknown[]
  /** Filter entries that matched no listed tool: most likely typos, so they are worth a warning. */
  unmatched: Array<{ field: 'include' | 'exclude'; entry: string }>
}

export function filterTools(listed: readonly unknown[], filter: ToolFilterConfig): FilteredTools {
  if (filter.include.length === 0 && filter.exclude.length === 0) return { kept: [...listed], unmatched: [] }
  const include = filter.include.map((entry) => ({ entry, hits: 0 }))
  const exclude = filter.exclude.map((entry) => ({ entry, hits: 0 }))
  const kept: unknown[] = []
  for (const tool of listed) {
    const name = rawNameOf(tool)
    // A tool without a usable name is kept for discovery to quarantine with its own reason.
    if (name === undefined) {
      kept.push(tool)
      continue
    }
    const included = include.length === 0 || countHits(include, name)
    const excluded = countHits(exclude, name)
    if (included && !excluded) kept.push(tool)
  }
  const unmatched = [
    ...include.filter((m) => m.hits === 0).map((m) => ({ field: 'include' as const, entry: m.entry })),
    ...exclude.filter((m) => m.hits === 0).map((m) => ({ field: 'exclude' as const, entry: m.entry })),
  ]
  return { kept, unmatched }
}

/** Every matcher is tried (not just the first) so that each entry's use is known. */
function countHits(matchers: Array<{ entry: string; hits: number }>, name: string): boolean {
  let any = false
  for (const matcher of matchers) {
    if (matchesGlob(matcher.entry, name)) {
      matcher.hits += 1
      any = true
    }
  }
  return any
}

/** A name discovery will quarantine anyway (missing, or over its length limit) is not matched at all. */
function rawNameOf(tool: unknown): string | undefined {
  const name = typeof tool === 'object' && tool !== null ? (tool as { name?: unknown }).name : undefined
  return typeof name === 'string' && name.length > 0 && name.length <= MAX_RAW_NAME_CHARS ? name : undefined
}
