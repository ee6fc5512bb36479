/**
 * Result and notification shapes, validated with the SDK's own zod schemas, as the negotiated
 * revision defines them (registry/shapes.ts gates the differences). Pure: a value in, the
 * problems out, each naming its path and showing the value found there.
 */
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CancelledNotificationSchema,
  CompleteResultSchema,
  CreateTaskResultSchema,
  ElicitationCompleteNotificationSchema,
  GetPromptResultSchema,
  GetTaskResultSchema,
  InitializeResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListTasksResultSchema,
  ListToolsResultSchema,
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ReadResourceResultSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ResultSchema,
  TaskStatusNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { isObject, show } from './check.ts'
import { CHILDREN, CONTENT_TYPE_GATES, FIELD_GATES, RELAXATIONS, REQUIRED_GATES, type ShapeType } from './registry/shapes.ts'
import { atLeast } from './spec.ts'

interface ZodIssueLike {
  code: string
  path: PropertyKey[]
  message: string
  values?: unknown[]
  errors?: ZodIssueLike[][]
}

interface Parser {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ZodIssueLike[] } }
}

/** The shapes the kit validates: the type (for the revision gates) and the SDK schema of each. */
export const SHAPES = {
  InitializeResult: { type: 'InitializeResult', schema: InitializeResultSchema },
  ListToolsResult: { type: 'ListToolsResult', schema: ListToolsResultSchema },
  CallToolResult: { type: 'CallToolResult', schema: CallToolResultSchema },
  ListResourcesResult: { type: 'ListResourcesResult', schema: ListResourcesResultSchema },
  ReadResourceResult: { type: 'ReadResourceResult', schema: ReadResourceResultSchema },
  ListResourceTemplatesResult: { type: 'ListResourceTemplatesResult', schema: ListResourceTemplatesResultSchema },
  ListPromptsResult: { type: 'ListPromptsResult', schema: ListPromptsResultSchema },
  GetPromptResult: { type: 'GetPromptResult', schema: GetPromptResultSchema },
  CompleteResult: { type: 'CompleteResult', schema: CompleteResultSchema },
  Result: { type: 'Result', schema: ResultSchema },
  CreateTaskResult: { type: 'CreateTaskResult', schema: CreateTaskResultSchema },
  GetTaskResult: { type: 'Task', schema: GetTaskResultSchema },
  CancelTaskResult: { type: 'Task', schema: CancelTaskResultSchema },
  ListTasksResult: { type: 'ListTasksResult', schema: ListTasksResultSchema },
  LoggingMessageNotification: { type: 'LoggingMessageNotification', schema: LoggingMessageNotificationSchema },
  ProgressNotification: { type: 'ProgressNotification', schema: ProgressNotificationSchema },
  CancelledNotification: { type: 'CancelledNotification', schema: CancelledNotificationSchema },
  ResourceUpdatedNotification: { type: 'ResourceUpdatedNotification', schema: ResourceUpdatedNotificationSchema },
  ToolListChangedNotification: { type: 'ListChangedNotification', schema: ToolListChangedNotificationSchema },
  PromptListChangedNotification: { type: 'ListChangedNotification', schema: PromptListChangedNotificationSchema },
  ResourceListChangedNotification: { type: 'ListChangedNotification', schema: ResourceListChangedNotificationSchema },
  TaskStatusNotification: { type: 'TaskStatusNotification', schema: TaskStatusNotificationSchema },
  ElicitationCompleteNotification: { type: 'ElicitationCompleteNotification', schema: ElicitationCompleteNotificationSchema },
} as const satisfies Record<string, { type: ShapeType; schema: unknown }>

export type ShapeName = keyof typeof SHAPES

export interface ShapeIssue {
  path: PropertyKey[]
  /** `expected string, got 5`: what is wrong, with the value found (or the object it is missing from). */
  problem: string
  /** `content[0].text: expected string, got 5`: the path and the problem. */
  text: string
  /** The zod issue code, for the relaxations. */
  code?: string
}

export interface ShapeReport {
  issues: ShapeIssue[]
  /** Fields present that the revision does not define, left unjudged (paths). */
  unjudged: string[]
}

/** Validates `value` as `name` of `revision`: the SDK's schema, with the revision's gates applied. */
export function validateShape(name: ShapeName, value: unknown, revision: string): ShapeReport {
  const { type, schema } = SHAPES[name]
  const unjudged: string[] = []
  const gated: ShapeIssue[] = []
  const stripped = strip(type, value, revision, [], unjudged, gated)
  const parsed = (schema as unknown as Parser).safeParse(stripped)
  const found = parsed.success ? [] : parsed.error.issues.flatMap((issue) => flatten(issue, [], value))
  const issues = [...gated, ...found.filter((issue) => !relaxed(issue))]
  return { issues: dedupe(issues), unjudged }
}

const issueAt = (path: PropertyKey[], problem: string, code?: string): ShapeIssue => ({ path, problem, text: `${pathText(path)}: ${problem}`, ...(code ? { code } : {}) })

/** The path as the messages print it: `tools[2].annotations.readOnlyHint`, `(root)` for the value itself. */
export function pathText(path: PropertyKey[]): string {
  let text = ''
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : text ? `.${String(key)}` : String(key)
  return text || '(root)'
}

/** A copy of `value` without the fields `revision` does not define; gate findings go to `issues`. */
function strip(type: ShapeType, value: unknown, revision: string, path: PropertyKey[], unjudged: string[], issues: ShapeIssue[]): unknown {
  if (!isObject(value)) return value
  const copy: Record<string, unknown> = { ...value }
  for (const gate of FIELD_GATES) {
    if (gate.type !== type || !(gate.field in copy)) continue
    if (gate.from && atLeast(revision, gate.from)) continue
    delete copy[gate.field]
    unjudged.push(pathText([...path, gate.field]))
  }
  for (const gate of REQUIRED_GATES) {
    if (gate.type !== type || !atLeast(revision, gate.from) || (gate.until && !atLeast(gate.until, revision))) continue
    if (copy[gate.field] === undefined) issues.push(issueAt([...path, gate.field], `missing, in ${show(value)}`))
  }
  if (type === 'ContentBlock' && typeof copy.type === 'string') {
    const arrived = CONTENT_TYPE_GATES.find((gate) => gate.value === copy.type && !atLeast(revision, gate.from))
    if (arrived) issues.push(issueAt([...path, 'type'], `${show(copy.type)} is not a content type of ${revision} (it arrived in ${arrived.from})`))
  }
  for (const [field, child] of Object.entries(CHILDREN[type] ?? {})) {
    const inner = copy[field]
    if (Array.isArray(child)) {
      if (Array.isArray(inner)) copy[field] = inner.map((item, i) => strip(child[0], item, revision, [...path, field, i], unjudged, issues))
    } else if (inner !== undefined) copy[field] = strip(child, inner, revision, [...path, field], unjudged, issues)
  }
  return copy
}

/** One zod issue as the problems it stands for; a union is reduced to the member the value meant. */
function flatten(issue: ZodIssueLike, base: PropertyKey[], root: unknown): ShapeIssue[] {
  const path = [...base, ...issue.path]
  if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0) {
    const at = valueAt(root, path)
    const typeMismatch = (branch: ZodIssueLike[]) => branch.find((i) => i.code === 'invalid_value' && i.path.length === 1 && i.path[0] === 'type')
    const meant = issue.errors.filter((branch) => !typeMismatch(branch))
    if (meant.length === 1) return meant[0]!.flatMap((inner) => flatten(inner, path, root))
    if (meant.length === 0) {
      const types = issue.errors.map((branch) => typeMismatch(branch)?.values?.[0]).filter((v): v is string => typeof v === 'string')
      const got = isObject(at) ? at.type : undefined
      return [issueAt([...path, 'type'], `${got === undefined ? 'missing' : show(got, 40)} is none of ${types.map((t) => JSON.stringify(t)).join(', ')}, in ${show(at)}`)]
    }
    // Members without a discriminator (text or blob contents): say what each would need.
    const needs = meant.map((branch) => branch.map((i) => `${pathText(i.path)} ${problem(i, valueAt(at, i.path))}`).join(' and '))
    return [issueAt(path, `matches no allowed form (${needs.join('; or ')}), in ${show(at)}`)]
  }
  const at = valueAt(root, path)
  const where = at === undefined && path.length > 0 ? `, in ${show(valueAt(root, path.slice(0, -1)))}` : ''
  return [issueAt(path, `${problem(issue, at)}${where}`, issue.code)]
}

function problem(issue: ZodIssueLike, at: unknown): string {
  if (issue.code === 'invalid_type' && at === undefined) return 'missing'
  const text = issue.message
    .replace(/^Invalid (input|option): /, '')
    .replace(/, received \w+$/, '')
    .replace(/^expected record$/, 'expected an object')
    .replace(/^Invalid Base64 string$/, 'not base64')
  return `${text}, got ${show(at, 60)}`
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let at = root
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined
    at = (at as Record<PropertyKey, unknown>)[key]
  }
  return at
}

function relaxed(issue: ShapeIssue): boolean {
  const [a, b] = issue.path.slice(-2)
  return RELAXATIONS.some((r) => r.at[0] === a && r.at[1] === b && r.code === issue.code)
}

function dedupe(issues: ShapeIssue[]): ShapeIssue[] {
  const seen = new Set<string>()
  return issues.filter((issue) => !seen.has(issue.text) && seen.add(issue.text))
}
