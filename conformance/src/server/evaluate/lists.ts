/**
 * Pure verdicts on the paginated list methods (tools/list, resources/list, prompts/list):
 * envelope shape, item shape, and a cursor chain that ends.
 */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show } from '../check.ts'
import { PROMPTS_LIST, PROMPTS_PAGINATION, RESOURCES_LIST, RESOURCES_PAGINATION } from '../registry/features.ts'
import type { CheckDef } from '../registry/types.ts'
import { TOOLS_LIST, TOOLS_PAGINATION } from '../registry/tools.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

export type ListKind = 'tools' | 'resources' | 'prompts'

/** What draining a list produced; `stop` says why the harness stopped asking. */
export interface ListObservation {
  kind: ListKind
  pages: RpcOutcome[]
  items: unknown[]
  stop: 'end' | 'repeated-cursor' | 'page-cap' | 'failed' | 'bad-page'
  cursors: string[]
  pageCap: number
  /** Why the last page was rejected, when `stop` is 'bad-page'. */
  problem?: string
}

const DEFS: Record<ListKind, { list: CheckDef; pagination: CheckDef }> = {
  tools: { list: TOOLS_LIST, pagination: TOOLS_PAGINATION },
  resources: { list: RESOURCES_LIST, pagination: RESOURCES_PAGINATION },
  prompts: { list: PROMPTS_LIST, pagination: PROMPTS_PAGINATION },
}

/** Required string fields of each list item (per the schema's Tool, Resource, Prompt). */
const REQUIRED: Record<ListKind, string[]> = { tools: ['name'], resources: ['uri', 'name'], prompts: ['name'] }

/** The definitions judgeList reports, for skips when the area is not declared. */
export function listChecks(kind: ListKind): CheckDef[] {
  return [DEFS[kind].list, DEFS[kind].pagination]
}

export function judgeList(obs: ListObservation, version: string): CheckResult[] {
  const j = judge(DEFS[obs.kind].list, version)
  const wire = obs.pages.flatMap((page) => page.wire)
  const last = obs.pages[obs.pages.length - 1]
  if (obs.stop === 'failed' && last) {
    const noAnswer = last.kind === 'timeout' || last.kind === 'closed'
    const failed = j.breach(`page ${obs.pages.length} got ${describeOutcome(last)}`, { wire }, noAnswer ? 'reply' : undefined)
    return [failed, judge(DEFS[obs.kind].pagination, version).notTestable(`${obs.kind}/list failed`)]
  }
  const problems: string[] = []
  if (obs.stop === 'bad-page') problems.push(`page ${obs.pages.length}: ${obs.problem ?? 'malformed'}`)
  obs.items.forEach((item, i) => {
    if (!isObject(item)) problems.push(`${obs.kind}[${i}] is not an object`)
    else {
      const missing = REQUIRED[obs.kind].filter((key) => typeof item[key] !== 'string' || item[key] === '')
      if (missing.length) problems.push(`${obs.kind}[${i}] ${show(item.name ?? item.uri, 40)} lacks a non-empty string ${missing.join(', ')}`)
    }
  })
  const summary = `${count(obs.items.length, obs.kind.slice(0, -1))} on ${count(obs.pages.length, 'page')}`
  const listed = problems.length ? j.breach(`${summary}; ${list(problems, 3)}`, { wire, details: { problems } }) : j.pass(summary, { wire })
  return [listed, judgePagination(obs, version, wire)]
}

function judgePagination(obs: ListObservation, version: string, wire: unknown[]): CheckResult {
  const j = judge(DEFS[obs.kind].pagination, version)
  const details = { pages: obs.pages.length, cursors: obs.cursors }
  if (obs.stop === 'repeated-cursor') {
    const repeated = obs.cursors[obs.cursors.length - 1]
    return j.breach(`nextCursor ${show(repeated)} came back a second time: following the cursors never ends`, { details, wire: wire.slice(-4) })
  }
  if (obs.stop === 'page-cap') return j.breach(`still returning a nextCursor after ${obs.pageCap} pages (the harness's cap)`, { details, wire: wire.slice(-4) })
  if (obs.stop === 'bad-page') return j.notTestable(`page ${obs.pages.length} is malformed`, { details })
  if (obs.pages.length === 1) return j.skip('the server returned everything on one page; pagination was not exercised', { details })
  return j.pass(`followed ${count(obs.pages.length - 1, 'cursor')} to the last page`, { details })
}

/** The list items that can be judged further (objects with a string name), for later checks. */
export function namedItems(obs: ListObservation): Record<string, unknown>[] {
  return obs.items.filter((item): item is Record<string, unknown> => isObject(item) && typeof item.name === 'string')
}
