import type { LimitsConfig } from '../config.ts'
import { BridgeError } from '../errors.ts'
import { isRecord } from '@mcp-bridge/process'
import { isId } from './lists.ts'
import { readResult } from './resources.ts'

/** The fields of a listed resource that reach the model (MCP 2025-11-25 §server/resources, Resource). */
const RESOURCE_FIELDS = ['uri', 'name', 'title', 'description', 'mimeType', 'size'] as const

/**
 * Pure: one resources/list page as a tools/call result, so the tool path bounds and projects it
 * like any tool's (definition.ts). Entries are kept to their MCP fields and one without a URI is
 * dropped, as the service's listings do; `nextCursor` is passed on for the model to ask for more.
 */
export function listPageAsToolResult(page: Record<string, unknown>): { content: unknown[]; structuredContent: Record<string, unknown> } {
  if (!Array.isArray(page.resources)) throw new BridgeError('resources/list returned no "resources" array', 'INVALID_RESULT')
  const resources = page.resources.filter((entry) => isRecord(entry) && isId(entry.uri)).map((entry) => pick(entry as Record<string, unknown>))
  const structured: Record<string, unknown> = { resources }
  if (typeof page.nextCursor === 'string') structured.nextCursor = page.nextCursor
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
}

/**
 * Pure: a resources/read result as a tools/call result. Text entries become text blocks; image
 * blobs become image blocks, which the tool path shows as images where the host accepts them
 * (image-admission.ts) and as a diagnostic where it does not; any other blob is summarised in one
 * line. The whole read stays in structuredContent for programmatic callers.
 */
export function readAsToolResult(result: Record<string, unknown>, uri: string, limits: Pick<LimitsConfig, 'maxResultBytes'>): { content: unknown[]; structuredContent: Record<string, unknown> } {
  const read = readResult(result, uri, limits)
  const content = read.contents.map((entry) => {
    if ('text' in entry) return { type: 'text', text: entry.text }
    if (entry.mimeType?.startsWith('image/')) return { type: 'image', data: entry.blob, mimeType: entry.mimeType }
    const bytes = Math.floor((entry.blob.length * 3) / 4) - (entry.blob.endsWith('==') ? 2 : entry.blob.endsWith('=') ? 1 : 0)
    return { type: 'text', text: `[binary resource ${entry.uri.slice(0, 200)}: ${(entry.mimeType ?? 'unknown media type').slice(0, 100)}, ${bytes} bytes; the raw contents remain available to programmatic callers]` }
  })
  return { content, structuredContent: { contents: read.contents } }
}

function pick(entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const field of RESOURCE_FIELDS) if (entry[field] !== undefined) out[field] = entry[field]
  return out
}
