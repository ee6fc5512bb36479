/**
 * Pure: whether two JSON values are equal as JSON: same primitives, same array items in order,
 * same object keys and values in any order, prototypes and frozenness ignored. Hosts may hand a
 * tool back a snapshot of its own value (the harness' ToolRuntime deep-clones and freezes a result
 * before `finalizeContent` sees it), so identity says nothing there; equality as JSON does.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const other = b as unknown[]
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]))
  }
  const left = defined(a as Record<string, unknown>)
  const right = defined(b as Record<string, unknown>)
  if (left.length !== right.length) return false
  const values = b as Record<string, unknown>
  return left.every(([key, value]) => Object.hasOwn(values, key) && jsonEqual(value, values[key]))
}

/** Own entries that JSON keeps: a key whose value is undefined is not part of the JSON. */
function defined(record: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(record).filter(([, value]) => value !== undefined)
}
