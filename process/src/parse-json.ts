/** A peer's text as JSON; undefined when it is not a string or not JSON (JSON itself never gives undefined). */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
