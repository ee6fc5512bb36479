import type { Entry } from './types.ts'
import { isRecord } from '@mcp-bridge/process'

/**
 * How a running entry changes:
 * - `update`: same plugin, new config: updated in place (`fiber.update`);
 * - `replace`: the entry now names another plugin: disposed, then loaded again;
 * - `retry`: unchanged, but its last start failed: started again with the same config.
 */
export interface Change {
  id: string
  kind: 'update' | 'replace' | 'retry'
  before: Entry
  after: Entry
  /** Dotted config paths that differ (`toolCallTimeoutMs`, `headers.Authorization`); never values. */
  changed: string[]
}

export interface Plan {
  add: Entry[]
  update: Change[]
  remove: Entry[]
  unchanged: Entry[]
  /** Running entries left alone because the file's version of them has errors. */
  kept: Entry[]
}

export interface DiffOptions {
  /** Ids whose entry in the new file has errors: their running instance is kept as it is. */
  held?: ReadonlySet<string>
  /** Keep running entries that are missing from the new file (an entry without a usable id may be one of them). */
  keepMissing?: boolean
  /** Running entries whose last start failed: restarted even when unchanged. */
  retry?: ReadonlySet<string>
}

/**
 * Pure: what has to happen to go from the running entries to the file's. An id is an entry's
 * identity, so a renamed id is a removal plus an addition, and entries whose id, plugin and config
 * are unchanged are never touched.
 */
export function diffEntries(current: readonly Entry[], next: readonly Entry[], options: DiffOptions = {}): Plan {
  const plan: Plan = { add: [], update: [], remove: [], unchanged: [], kept: [] }
  const running = new Map(current.map((entry) => [entry.id, entry]))
  const listed = new Set(next.map((entry) => entry.id))
  const wanted = next.filter((entry) => !entry.disabled)

  for (const after of wanted) {
    const before = running.get(after.id)
    if (!before) plan.add.push(after)
    else if (before.key !== after.key) plan.update.push({ id: after.id, kind: 'replace', before, after, changed: ['name'] })
    else if (!deepEqual(before.config, after.config)) {
      plan.update.push({ id: after.id, kind: 'update', before, after, changed: changedPaths(before.config, after.config) })
    } else if (options.retry?.has(after.id)) plan.update.push({ id: after.id, kind: 'retry', before, after, changed: [] })
    else plan.unchanged.push(before)
  }

  const wantedIds = new Set(wanted.map((entry) => entry.id))
  for (const before of current) {
    if (wantedIds.has(before.id)) continue
    if (options.held?.has(before.id)) plan.kept.push(before)
    else if (options.keepMissing && !listed.has(before.id)) plan.kept.push(before)
    else plan.remove.push(before)
  }
  return plan
}

/** Pure: structural equality of JSON-like values (key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]))
  }
  if (!isRecord(a) || !isRecord(b)) return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
}

/** Pure: the dotted paths at which two configs differ; arrays count as one value. */
export function changedPaths(a: unknown, b: unknown, prefix = ''): string[] {
  if (deepEqual(a, b)) return []
  if (!isRecord(a) || !isRecord(b)) return [prefix || '(config)']
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
  return keys.flatMap((key) => changedPaths(a[key], b[key], prefix ? `${prefix}.${key}` : key))
}
