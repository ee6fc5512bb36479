/**
 * Asks each list (tools, resources, prompts) that paginates for a page at a cursor the server
 * never issued. Whether a list paginates is read from its pagination check, which followed its
 * cursors already: no list is asked again just to find out.
 */
import type { CheckResult } from '../../model.ts'
import { isObject } from '../check.ts'
import { judgeInvalidCursor, type CursorList } from '../evaluate/invalid-inputs.ts'
import type { Session } from '../evaluate/lifecycle.ts'
import { UNKNOWN_CURSOR } from '../unknown-inputs.ts'
import type { Wire } from '../wire/types.ts'

const LISTS = ['tools', 'resources', 'prompts'] as const

/** `earlier`: the checks run so far, among them `<kind>/pagination` with the pages it followed. */
export async function probeInvalidCursor(wire: Wire, session: Session, timeoutMs: number, earlier: CheckResult[]): Promise<CheckResult> {
  const lists: CursorList[] = []
  // An undeclared list is the undeclared checks' to ask; its answer to a cursor says nothing here.
  for (const kind of LISTS.filter((k) => isObject(session.capabilities[k]))) {
    const method = `${kind}/list`
    const pagination = earlier.find((c) => c.id === `${kind}/pagination`)
    const pages = isObject(pagination?.details) && typeof pagination.details.pages === 'number' ? pagination.details.pages : 0
    // A chain that looped or never ended is the pagination check's fault already; only a clean chain of pages tells that cursors are read.
    const paginates = pagination?.status === 'pass' && pages > 1
    lists.push({ method, ...(paginates ? { outcome: await wire.request(method, { cursor: UNKNOWN_CURSOR }, timeoutMs) } : {}) })
  }
  return judgeInvalidCursor(lists, session.version)
}
