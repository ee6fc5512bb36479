import { createHash } from 'node:crypto'

/** The longest raw name a server's tool may have: a longer one is quarantined at discovery, and a filter entry naming one matches nothing. */
export const MAX_RAW_NAME_CHARS = 1024

/** Longest public name a model provider accepts (the function-name contract). */
export const MAX_PUBLIC_NAME_LENGTH = 64
const HASH_LENGTH = 12
const INVALID_CHARACTER = /[^A-Za-z0-9_-]/g
const HAS_INVALID_CHARACTER = /[^A-Za-z0-9_-]/

/**
 * The model-facing name of the MCP tool `rawName` served by the instance named `serverName`.
 *
 * A pure function of the (serverName, rawName) identity, so reconnects, re-syncs and unrelated
 * servers never rename a tool. When sanitising or truncation changed the name, a hash of the
 * identity is appended so distinct identities can never collapse into one public name.
 */
export function publicToolName(serverName: string, rawName: string): string {
  const joined = `mcp__${serverName}__${rawName}`
  // Tested before replacing: the common, already valid name costs one scan and no copy.
  const valid = !HAS_INVALID_CHARACTER.test(joined)
  if (valid && joined.length <= MAX_PUBLIC_NAME_LENGTH) return joined
  const normalized = valid ? joined : joined.replace(INVALID_CHARACTER, '_')
  const hash = createHash('sha256').update(`${serverName}\0${rawName}`).digest('hex').slice(0, HASH_LENGTH)
  return `${normalized.slice(0, MAX_PUBLIC_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`
}
