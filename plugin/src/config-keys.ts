/**
 * Pure: the first key of a config that no schema knows, said as one line that names it and
 * suggests the nearest known key (a typo such as `toolCallTimeoutMS`), or the transport it
 * belongs to (`url` on a stdio instance). Keys starting with `$` are left to the host (Cordis
 * loaders use them for their own options).
 */

import { isRecord, nearestWord } from '@mcp-bridge/process'

/** Known keys; a nested object's keys under its own name. */
export interface KeyTree {
  [key: string]: KeyTree | true
}

/** The path of the unknown key (as ['reconnect', 'maxAttempt']) and the line that explains it. */
export interface UnknownKey {
  path: string[]
  message: string
}

export function unknownKey(value: unknown, known: KeyTree, elsewhere: Record<string, string>, path: string[] = []): UnknownKey | undefined {
  if (!isRecord(value)) return undefined
  for (const [key, inner] of Object.entries(value)) {
    if (key.startsWith('$')) continue
    const node = known[key]
    if (node === undefined) {
      const at = [...path, key]
      return { path: at, message: describe(at, Object.keys(known), path.length === 0 ? elsewhere[key] : undefined) }
    }
    if (node !== true) {
      const deeper = unknownKey(inner, node, elsewhere, [...path, key])
      if (deeper) return deeper
    }
  }
  return undefined
}

function describe(path: string[], candidates: string[], otherTransport: string | undefined): string {
  const key = path.join('.')
  if (otherTransport) return `"${key}" only applies to transport "${otherTransport}": remove it, or set transport to "${otherTransport}".`
  const nearest = nearestWord(path[path.length - 1]!, candidates)
  const parent = path.slice(0, -1).join('.')
  const suggestion = nearest ? `did you mean "${parent ? `${parent}.` : ''}${nearest}"?` : `known keys${parent ? ` of ${parent}` : ''}: ${candidates.join(', ')}.`
  return `unknown key "${key}": ${suggestion}`
}
