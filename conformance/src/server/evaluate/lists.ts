/**
 * Pure verdicts on the paginated list methods (tools/list, resources/list, prompts/list):
 * envelope shape, item shape, and a cursor chain that ends.
 */
import type { CheckResult } from '../../model.ts'
import { count, isObject, list, notTestable, show, verdict } from '../check.ts'
import { spec, type SpecTopic } from '../spec.ts'
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

const TOPIC: Record<ListKind, SpecTopic> = {
  tools: 'tools#listing-tools',
  resources: 'resources#listing-resources',
  prompts: 'prompts#listing-prompts',
}

/** Required string fields of each list item (per the schema's Tool, Resource, Prompt). */
const REQUIRED: Record<ListKind, string[]> = { tools: ['name'], resources: ['uri', 'name'], prompts: ['name'] }

/** The ids and titles judgeList produces for `kind`, for skips when the area is not declared. */
export function listChecks(kind: ListKind): Array<{ id: string; title: string }> {
  return [
    { id: `${kind}/list`, title: `${kind}/list returns a well-formed list` },
    { id: `${kind}/pagination`, title: paginationTitle(kind) },
  ]
}

export function judgeList(obs: ListObservation, version: string): CheckResult[] {
  const id = `${obs.kind}/list`
  const title = `${obs.kind}/list returns a well-formed list`
  const ref = spec(version, TOPIC[obs.kind])
  const wire = obs.pages.flatMap((page) => page.wire)
  const last = obs.pages[obs.pages.length - 1]
  if (obs.stop === 'failed' && last) {
    const failed = verdict(id, title, 'fail', `page ${obs.pages.length} got ${describeOutcome(last)}`, { spec: ref, wire })
    return [failed, notTestable(`${obs.kind}/pagination`, paginationTitle(obs.kind), `${obs.kind}/list failed`, { spec: spec(version, 'pagination') })]
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
  const listed = problems.length
    ? verdict(id, title, 'fail', `${summary}; ${list(problems, 3)}`, { spec: ref, wire, details: { problems } })
    : verdict(id, title, 'pass', summary, { spec: ref, wire })
  return [listed, judgePagination(obs, version, wire)]
}

function paginationTitle(kind: ListKind): string {
  return `${kind}/list pagination ends`
}

function judgePagination(obs: ListObservation, version: string, wire: unknown[]): CheckResult {
  const id = `${obs.kind}/pagination`
  const title = paginationTitle(obs.kind)
  const evidence = { spec: spec(version, 'pagination'), details: { pages: obs.pages.length, cursors: obs.cursors } }
  if (obs.stop === 'repeated-cursor') {
    const repeated = obs.cursors[obs.cursors.length - 1]
    return verdict(id, title, 'fail', `nextCursor ${show(repeated)} came back a second time: following the cursors never ends`, { ...evidence, wire: wire.slice(-4) })
  }
  if (obs.stop === 'page-cap') {
    return verdict(id, title, 'fail', `still returning a nextCursor after ${obs.pageCap} pages (the harness's cap)`, { ...evidence, wire: wire.slice(-4) })
  }
  if (obs.stop === 'bad-page') return notTestable(id, title, `page ${obs.pages.length} is malformed`, evidence)
  if (obs.pages.length === 1) return verdict(id, title, 'skip', 'the server returned everything on one page; pagination was not exercised', evidence)
  return verdict(id, title, 'pass', `followed ${count(obs.pages.length - 1, 'cursor')} to the last page`, evidence)
}

/** The list items that can be judged further (objects with a string name), for later checks. */
export function namedItems(obs: ListObservation): Record<string, unknown>[] {
  return obs.items.filter((item): item is Record<string, unknown> => isObject(item) && typeof item.name === 'string')
}
