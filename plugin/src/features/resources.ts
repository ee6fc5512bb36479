import type { LimitsConfig } from '../config.ts'
import { BridgeError } from '../errors.ts'
import { jsonByteLength, jsonFitsInBytes } from '@mcp-bridge/process'
import { isRecord } from '@mcp-bridge/process'
import { isId } from './lists.ts'

/** One entry of a read, as MCP 2025-11-25 §server/resources defines it: text or a base64 blob. */
export type ResourceContents = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string }

export interface ReadResult {
  contents: ResourceContents[]
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * Pure: a resources/read result as programmatic callers get it, whole, or why it is refused.
 * Bounded like a tool's result: over limits.maxResultBytes it is an error of that read (the
 * transport refused anything larger before it was held). Entries are kept to their MCP fields, so
 * what a server tucks beside them goes no further.
 */
export function readResult(result: Record<string, unknown>, uri: string, limits: Pick<LimitsConfig, 'maxResultBytes'>): ReadResult {
  const refuse = (why: string) => new BridgeError(`resources/read of ${uri.slice(0, 200)} returned ${why}`, 'INVALID_RESULT')
  if (!jsonFitsInBytes(result, limits.maxResultBytes)) throw refuse(`${jsonByteLength(result)} bytes, over limits.maxResultBytes (${limits.maxResultBytes})`)
  if (!Array.isArray(result.contents)) throw refuse('no "contents" array')
  const contents = result.contents.map((entry, index): ResourceContents => {
    if (!isRecord(entry) || !isId(entry.uri)) throw refuse(`contents[${index}] without a "uri" string`)
    const mimeType = typeof entry.mimeType === 'string' ? { mimeType: entry.mimeType } : {}
    if (typeof entry.text === 'string') return { uri: entry.uri, ...mimeType, text: entry.text }
    // Checked so a caller that decodes it is never handed something else: "blob" is base64 (the schema's format: byte).
    if (typeof entry.blob === 'string' && entry.blob.length % 4 === 0 && BASE64.test(entry.blob)) return { uri: entry.uri, ...mimeType, blob: entry.blob }
    throw refuse(`contents[${index}] with neither a "text" string nor a base64 "blob"`)
  })
  return { contents }
}
