/**
 * The two object checks the plugin makes of untrusted or parsed values, in one place.
 */

/** A JSON object as parsed: any non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * An object literal or `Object.create(null)`: what JSON and YAML parsers produce. Class instances,
 * dates, maps and arrays are not, so a walk over plain data never descends into them.
 */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
