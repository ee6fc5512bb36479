import type { LimitsConfig } from '../config.ts'
import { jsonFitsInBytes } from '@mcp-bridge/process'
import { BridgeError } from '../errors.ts'
import { drainPages, type PagedList } from '../pages.ts'
import { isRecord } from '@mcp-bridge/process'

/** The list methods beyond tools: the key that holds their items, and the field each item must have as a string. */
export const LISTS = {
  resources: { method: 'resources/list', key: 'resources', noun: 'resources', code: 'INVALID_RESULT', id: 'uri' },
  templates: { method: 'resources/templates/list', key: 'resourceTemplates', noun: 'resource templates', code: 'INVALID_RESULT', id: 'uriTemplate' },
  prompts: { method: 'prompts/list', key: 'prompts', noun: 'prompts', code: 'INVALID_RESULT', id: 'name' },
} as const satisfies Record<string, PagedList & { id: string }>

export type ListKind = keyof typeof LISTS

/** Longest identifier (URI, template, prompt name) kept: a longer one is the server's mistake, not a listing. */
export const MAX_ID_CHARS = 8_192

/**
 * A whole list: every page followed within limits.maxPages and limits.maxTools items, the result
 * held within limits.maxResultBytes. An entry without its identifier as a string (a URI, a
 * template, a name) is dropped and counted, as a broken tool is quarantined: the rest still lists.
 */
export async function drainList(
  kind: ListKind,
  request: (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>,
  limits: Pick<LimitsConfig, 'maxPages' | 'maxTools' | 'maxResultBytes'>,
): Promise<{ items: Record<string, unknown>[]; dropped: number; ttlMs?: unknown }> {
  const list = LISTS[kind]
  // The first page's cache hint stands for the listing ("Servers MUST apply the same cacheScope to
  // all response pages", 2026-07-28 server/utilities/caching; the TTL counts from the first answer).
  let ttlMs: unknown
  let first = true
  const listed = await drainPages(
    list,
    async (cursor) => {
      const page = await request(list.method, cursor === undefined ? {} : { cursor })
      if (first) ttlMs = page.ttlMs
      first = false
      return page
    },
    limits,
  )
  if (!jsonFitsInBytes(listed, limits.maxResultBytes)) throw new BridgeError(`${list.method} listed more than limits.maxResultBytes (${limits.maxResultBytes}) bytes of ${list.noun}`, 'INVALID_RESULT')
  const items = listed.filter((item): item is Record<string, unknown> => isRecord(item) && isId(item[list.id]))
  return { items, dropped: listed.length - items.length, ...(ttlMs !== undefined && { ttlMs }) }
}

/** A URI, template or name the bridge passes on: a non-empty string of at most MAX_ID_CHARS. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_CHARS
}
