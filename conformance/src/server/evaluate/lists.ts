/**
 * Pure verdicts on the paginated list methods (tools/list, resources/list, prompts/list): every
 * page validated with the SDK's schema as the negotiated revision defines it, and a cursor chain
 * that ends.
 */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show, unreadable } from '../check.ts'
import { PROMPTS_LIST, PROMPTS_PAGINATION, RESOURCES_LIST, RESOURCES_PAGINATION } from '../registry/features.ts'
import type { CheckDef } from '../registry/types.ts'
import { TOOLS_LIST, TOOLS_PAGINATION } from '../registry/tools.ts'
import { pathText, validateShape, type ShapeName } from '../shapes.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

export type ListKind = 'tools' | 'resources' | 'prompts'

/** What draining a list produced; `stop` says why the harness stopped asking. */
export interface ListObservation {
  kind: ListKind
  pages: RpcOutcome[]
  items: unknown[]
  /** 'bad-page': the last page has no array of items, or a nextCursor that is not a string. */
  stop: 'end' | 'repeated-cursor' | 'page-cap' | 'failed' | 'bad-page'
  cursors: string[]
  pageCap: number
}

/** A schema problem of one page; `item` when it lies inside one listed item. */
export interface PageIssue {
  /** 1-based. */
  page: number
  /** `page 2: tools[0].inputSchema: missing, …` (the page only when there are several). */
  text: string
  item?: {
    /** Its name (or uri), when it has one. */
    name?: unknown
    /** The first key inside the item (`annotations`), absent when the item itself is wrong. */
    field?: string
    /** `annotations.readOnlyHint: expected boolean, got "yes"`, relative to the item. */
    text: string
  }
}

export interface PageShapes {
  issues: PageIssue[]
  /** Fields the revision does not define, left unjudged. */
  unjudged: string[]
}

const DEFS: Record<ListKind, { list: CheckDef; pagination: CheckDef }> = {
  tools: { list: TOOLS_LIST, pagination: TOOLS_PAGINATION },
  resources: { list: RESOURCES_LIST, pagination: RESOURCES_PAGINATION },
  prompts: { list: PROMPTS_LIST, pagination: PROMPTS_PAGINATION },
}

const SHAPE: Record<ListKind, ShapeName> = { tools: 'ListToolsResult', resources: 'ListResourcesResult', prompts: 'ListPromptsResult' }

/** Every page that came back as a result, validated as its revision defines ListToolsResult (etc.). */
export function pageShapes(obs: ListObservation, version: string): PageShapes {
  const issues: PageIssue[] = []
  const unjudged: string[] = []
  const several = obs.pages.length > 1
  obs.pages.forEach((outcome, p) => {
    if (outcome.kind !== 'result') return
    const prefix = several ? `page ${p + 1}: ` : ''
    const report = validateShape(SHAPE[obs.kind], outcome.result, version)
    unjudged.push(...report.unjudged.map((path) => `${prefix}${path}`))
    for (const issue of report.issues) {
      const [field, index, inner] = issue.path
      const page = outcome.result as Record<string, unknown>
      if (field === obs.kind && typeof index === 'number') {
        const item = (page[obs.kind] as unknown[])[index]
        const name = isObject(item) ? (item.name ?? item.uri) : undefined
        const rest = issue.path.slice(2)
        issues.push({
          page: p + 1,
          text: `${prefix}${issue.text}`,
          item: { ...(name !== undefined ? { name } : {}), ...(typeof inner === 'string' ? { field: inner } : {}), text: rest.length ? `${pathText(rest)}: ${issue.problem}` : issue.problem },
        })
      } else issues.push({ page: p + 1, text: `${prefix}${issue.text}` })
    }
  })
  return { issues, unjudged }
}

/** Whether the list could not be read to its end, so nothing built on it can be judged. */
export function listFailed(obs: ListObservation): boolean {
  return obs.stop === 'failed' || obs.stop === 'bad-page'
}

/**
 * The check that reports why the list could not be read, for the "Not testable" of what needs it:
 * the list's own check, or the jsonrpc check that reports a page's broken envelope.
 */
export function listPrerequisite(obs: ListObservation): string {
  const last = obs.pages[obs.pages.length - 1]
  return last?.kind === 'malformed' && last.envelope !== undefined ? last.envelope : `${obs.kind}/list`
}

/** The definitions judgeList reports, for skips when the area is not declared. */
export function listChecks(kind: ListKind): CheckDef[] {
  return [DEFS[kind].list, DEFS[kind].pagination]
}

/**
 * `claimed` picks the issues another check reports (a tool's annotations are tools/annotations'),
 * so one problem is reported once.
 */
export function judgeList(obs: ListObservation, version: string, shapes = pageShapes(obs, version), claimed: (issue: PageIssue) => boolean = () => false): CheckResult[] {
  const j = judge(DEFS[obs.kind].list, version)
  const wire = obs.pages.flatMap((page) => page.wire)
  const last = obs.pages[obs.pages.length - 1]
  if (obs.stop === 'failed' && last) {
    const noAnswer = last.kind === 'timeout' || last.kind === 'closed'
    const failed = unreadable(j, `${obs.kind}/list (page ${obs.pages.length})`, last) ?? j.breach(`page ${obs.pages.length} got ${describeOutcome(last)}`, { wire }, noAnswer ? 'reply' : undefined)
    return [failed, judge(DEFS[obs.kind].pagination, version).notTestable(listPrerequisite(obs), 'there are no pages to follow')]
  }
  const problems = shapes.issues.filter((issue) => !claimed(issue)).map((issue) => issue.text)
  const summary = `${count(obs.items.length, obs.kind.slice(0, -1))} on ${count(obs.pages.length, 'page')}`
  const details = { ...(problems.length ? { problems } : {}), ...(shapes.unjudged.length ? { notInRevision: shapes.unjudged } : {}) }
  const observed = { wire, ...(Object.keys(details).length ? { details } : {}) }
  const listed = problems.length ? j.breach(`${summary}; ${list(problems, 3)}`, observed) : j.pass(summary, observed)
  return [listed, judgePagination(obs, version, wire)]
}

function judgePagination(obs: ListObservation, version: string, wire: unknown[]): CheckResult {
  const j = judge(DEFS[obs.kind].pagination, version)
  const details = { pages: obs.pages.length, cursors: obs.cursors }
  if (obs.stop === 'repeated-cursor') {
    const repeated = obs.cursors[obs.cursors.length - 1]
    // cursors[i] is the nextCursor of page i + 1.
    const first = obs.cursors.indexOf(repeated!) + 1
    return j.breach(`page ${obs.pages.length} returned nextCursor ${show(repeated)}, which page ${first} had returned already: a client that follows the cursors asks for the same pages again, so the listing never ends`, { details, wire: wire.slice(-4) })
  }
  if (obs.stop === 'page-cap') {
    // A long list is no fault: the spec sets no page limit, so what the kit saw so far is all it can say.
    const items = count(obs.items.length, obs.kind.slice(0, -1))
    return j.skip(`the kit stopped following nextCursor after ${obs.pageCap} pages (its own cap; the spec sets no page limit): ${items} on ${count(obs.pages.length, 'page')}, every cursor distinct, judged; the rest not seen`, { details, wire: wire.slice(-4) })
  }
  if (obs.stop === 'bad-page') return j.notTestable(`${obs.kind}/list`, `page ${obs.pages.length} is malformed, so its cursor cannot be followed`, { details })
  if (obs.pages.length === 1) return j.skip('the server returned everything on one page; pagination was not exercised', { details })
  return j.pass(`followed ${count(obs.pages.length - 1, 'cursor')} to the last page`, { details })
}

/** The list items that can be judged further (objects with a string name), for later checks. */
export function namedItems(obs: ListObservation): Record<string, unknown>[] {
  return obs.items.filter((item): item is Record<string, unknown> => isObject(item) && typeof item.name === 'string')
}
