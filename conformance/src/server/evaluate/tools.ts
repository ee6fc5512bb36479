/**
 * Pure verdicts on the tool definitions a server lists. The shape of each definition is the SDK's
 * ToolSchema as the negotiated revision defines it (validated once, with the whole page, in
 * evaluate/lists.ts); each check here reports the problems inside the fields it is about.
 */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show } from '../check.ts'
import type { CheckDef } from '../registry/types.ts'
import { ANNOTATIONS, DESCRIPTIONS, INPUT_SCHEMA, NAMES_UNIQUE, NAMES_VALID, OUTPUT_SCHEMA, TASK_SUPPORT } from '../registry/tools.ts'
import { compileSchema } from '../schema.ts'
import { atLeast } from '../spec.ts'
import type { PageIssue } from './lists.ts'
import { cut } from '../quote.ts'

type Tool = Record<string, unknown>

/** The characters and length the 2025-11-25 tool-name rules allow. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/

/** The fields of a Tool whose schema problems a definition check reports (the rest are tools/list's). */
const FIELDS: Record<string, CheckDef> = {
  inputSchema: INPUT_SCHEMA,
  outputSchema: OUTPUT_SCHEMA,
  description: DESCRIPTIONS,
  title: ANNOTATIONS,
  annotations: ANNOTATIONS,
  execution: TASK_SUPPORT,
}

/** Whether a page issue is one of the definition checks' (for judgeList's `claimed`). */
export const definitionIssue = (issue: PageIssue): boolean => issue.item?.field !== undefined && Object.hasOwn(FIELDS, issue.item.field)

/** The definitions judgeTools reports, for skips and "not testable" when there is no list. */
export const DEFINITION_CHECKS: CheckDef[] = [NAMES_VALID, NAMES_UNIQUE, INPUT_SCHEMA, OUTPUT_SCHEMA, DESCRIPTIONS, ANNOTATIONS, TASK_SUPPORT]

/** `issues`: the schema problems of the listed pages (the ones inside the fields above are judged here). */
export function judgeTools(tools: Tool[], version: string, capabilities: Record<string, unknown>, issues: PageIssue[] = []): CheckResult[] {
  const mine = (def: CheckDef) => issues.filter((issue) => issue.item?.field !== undefined && FIELDS[issue.item.field] === def).map(named)
  return [
    judgeNames(tools, version),
    judgeUnique(tools, version),
    judgeSchemas(tools, version, INPUT_SCHEMA, 'inputSchema', mine(INPUT_SCHEMA)),
    judgeSchemas(tools.filter((t) => t.outputSchema !== undefined), version, OUTPUT_SCHEMA, 'outputSchema', mine(OUTPUT_SCHEMA), tools.length),
    judgeDescriptions(tools, version, mine(DESCRIPTIONS)),
    judgeAnnotations(tools, version, mine(ANNOTATIONS)),
    judgeTaskSupport(tools, version, capabilities, mine(TASK_SUPPORT)),
  ]
}

interface Named {
  tool: string
  text: string
}

const named = (issue: PageIssue): Named => ({ tool: show(issue.item?.name, 40), text: issue.item?.text ?? issue.text })

function judgeNames(tools: Tool[], version: string): CheckResult {
  const j = judge(NAMES_VALID, version)
  if (!j.applies) return j.notInRevision()
  if (tools.length === 0) return j.skip('tools/list returned no tools; nothing to judge')
  const bad = tools.map((t) => t.name as string).filter((name) => !TOOL_NAME_PATTERN.test(name))
  if (bad.length === 0) return j.pass(`${tools.length === 1 ? 'the name matches' : `all ${tools.length} names match`} ${TOOL_NAME_PATTERN.source}`)
  return j.breach(`${count(bad.length, 'name')} outside ${TOOL_NAME_PATTERN.source}: ${list(bad.map((n) => show(n, 40)))}`, { details: { invalid: bad } })
}

function judgeUnique(tools: Tool[], version: string): CheckResult {
  const j = judge(NAMES_UNIQUE, version)
  if (tools.length === 0) return j.skip('tools/list returned no tools; nothing to judge')
  const seen = new Map<string, number>()
  for (const tool of tools) seen.set(tool.name as string, (seen.get(tool.name as string) ?? 0) + 1)
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([name, n]) => `${show(name, 40)} ×${n}`)
  if (duplicates.length === 0) return j.pass(count(tools.length, 'distinct name'))
  return j.breach(`listed more than once: ${list(duplicates)}; a call by name cannot tell them apart`, { details: { duplicates } })
}

interface SchemaProblem {
  tool: string
  problem: string
  /** Which sentence the problem breaks (see the registry entry). */
  ruleCase?: 'object' | 'dialect'
}

/** The dialect problems of one input/output schema (its shape is the SDK's), and a note when part of it could not be judged. */
function schemaProblems(name: string, schema: unknown, version: string): { problems: SchemaProblem[]; note?: string; dialect?: string } {
  if (!isObject(schema)) return { problems: [] }
  const problems: SchemaProblem[] = []
  const compiled = compileSchema(schema, version)
  if (compiled.ok === 'unjudged') return { problems, note: compiled.reason, ...(compiled.dialect ? { dialect: compiled.dialect } : {}) }
  if (compiled.ok === false) problems.push({ tool: name, problem: `invalid ${compiled.dialect} schema: ${cut(compiled.reason, 200)}`, ruleCase: 'dialect' })
  return { problems, dialect: compiled.dialect }
}

/**
 * How many schemas of one field are compiled against their dialect. Compiling generates code
 * (about half a millisecond each), so a list of 100,000 tools would hold the kit for a minute and
 * more; the spec sets no limit on a list, so the rest are reported as not judged, never as a fault.
 * Their shape (an object schema) is still judged for every tool, with the page.
 */
export const MAX_SCHEMAS_JUDGED = 1000

function judgeSchemas(tools: Tool[], version: string, def: CheckDef, field: 'inputSchema' | 'outputSchema', shape: Named[], listed = tools.length): CheckResult {
  const j = judge(def, version)
  if (!j.applies) return j.notInRevision()
  if (tools.length === 0) return j.skip(listed ? `no tool declares an ${field}` : 'tools/list returned no tools; nothing to judge')
  const failures: SchemaProblem[] = shape.map((issue) => ({ tool: issue.tool, problem: issue.text, ruleCase: 'object' }))
  const notes: Array<{ tool: string; note: string }> = []
  const dialects = new Map<string, number>()
  // Schemas that name their dialect: from 2025-11-25 on, one other than 2020-12 is not the recommended one.
  const declaredDialects: { tool: string; dialect: string }[] = []
  const beyond = Math.max(0, tools.length - MAX_SCHEMAS_JUDGED)
  for (const tool of tools.slice(0, MAX_SCHEMAS_JUDGED)) {
    const name = tool.name as string
    const { problems, note, dialect } = schemaProblems(name, tool[field], version)
    failures.push(...problems.map((p) => ({ ...p, tool: show(p.tool, 40) })))
    if (note) notes.push({ tool: name, note })
    if (dialect && !note) dialects.set(dialect, (dialects.get(dialect) ?? 0) + 1)
    if (dialect && !note && isObject(tool[field]) && (tool[field] as Record<string, unknown>).$schema !== undefined) declaredDialects.push({ tool: show(name, 40), dialect })
  }
  const capped = beyond ? `; the ${count(beyond, field)} after the first ${MAX_SCHEMAS_JUDGED} were not compiled against their dialect (the kit's limit)` : ''
  const details = {
    dialects: Object.fromEntries(dialects),
    ...(failures.length ? { failures: failures.slice(0, 100), ...(failures.length > 100 ? { moreFailures: failures.length - 100 } : {}) } : {}),
    ...(notes.length ? { unjudged: notes.slice(0, 100).map((n) => ({ tool: show(n.tool, 40), note: n.note })) } : {}),
    ...(beyond ? { notCompiled: beyond, compileLimit: MAX_SCHEMAS_JUDGED } : {}),
  }
  if (failures.length) {
    const first = failures[0]!
    const text = failures.map((f) => `${f.tool}: ${f.problem}`)
    return j.breach(`${count(new Set(failures.map((f) => f.tool)).size, field)} of ${tools.length} fail: ${list(text, 3)}${capped}`, { details }, first.ruleCase)
  }
  const judged = tools.length - beyond - notes.length
  const others = atLeast(version, '2025-11-25') ? declaredDialects.filter((d) => d.dialect !== '2020-12') : []
  if (others.length) return j.breach(`${count(others.length, field)} of ${tools.length} ${others.length === 1 ? 'declares' : 'declare'} a dialect other than 2020-12: ${list(others.map((o) => `${o.tool}: ${o.dialect}`), 3)}`, { details }, 'recommended')
  if (judged === 0) return j.skip(`no ${field} could be judged: ${list(notes.map((n) => `${show(n.tool, 40)}: ${n.note}`), 2)}${capped}`, { details })
  const inDialects = [...dialects].map(([d, n]) => `${n} in ${d}`).join(', ')
  const unjudged = notes.length ? `; ${notes.length} not judged (${notes[0]!.note})` : ''
  return j.pass(`${judged === 1 ? 'the one judged schema is a valid object schema' : `all ${judged} judged schemas are valid object schemas`} (${inDialects})${unjudged}${capped}`, { details })
}

function judgeDescriptions(tools: Tool[], version: string, shape: Named[]): CheckResult {
  const j = judge(DESCRIPTIONS, version)
  if (tools.length === 0) return j.skip('tools/list returned no tools; nothing to judge')
  if (shape.length) return j.breach(list(shape.map((i) => `${i.tool}: ${i.text}`), 3), { details: { problems: shape } })
  const missing = tools.filter((t) => typeof t.description !== 'string' || t.description.trim() === '').map((t) => t.name as string)
  // Optional in the schema, but it is all a model has to choose the tool by.
  if (missing.length) return j.breach(`no description for ${list(missing.map((n) => show(n, 40)))}`, { details: { missing } }, 'missing')
  return j.pass(`${tools.length === 1 ? 'the tool is' : `all ${tools.length} tools are`} described`)
}

function judgeAnnotations(tools: Tool[], version: string, shape: Named[]): CheckResult {
  const j = judge(ANNOTATIONS, version)
  if (!j.applies) return j.notInRevision()
  // A title before 2025-06-18 is a field the revision does not define: not judged, and not counted.
  const titled = atLeast(version, '2025-06-18')
  const annotated = tools.filter((t) => t.annotations !== undefined || (titled && t.title !== undefined))
  if (annotated.length === 0) return j.skip(tools.length ? `no tool carries annotations${titled ? ' or a title' : ''}` : 'tools/list returned no tools; nothing to judge')
  if (shape.length) return j.breach(list(shape.map((i) => `${i.tool}: ${i.text}`), 3), { details: { problems: shape } })
  return j.pass(`${count(annotated.length, 'annotated tool')}, all fields well-typed`)
}

function judgeTaskSupport(tools: Tool[], version: string, capabilities: Record<string, unknown>, shape: Named[]): CheckResult {
  const j = judge(TASK_SUPPORT, version)
  if (!j.applies) return j.notInRevision()
  const declaring = tools.filter((t) => t.execution !== undefined)
  if (declaring.length === 0) return j.skip(tools.length ? 'no tool declares execution.taskSupport' : 'tools/list returned no tools; nothing to judge')
  if (shape.length) return j.breach(list(shape.map((i) => `${i.tool}: ${i.text}`), 3), { details: { problems: shape } })
  const support = (t: Tool) => (isObject(t.execution) ? t.execution.taskSupport : undefined)
  const required = declaring.filter((t) => support(t) === 'required').map((t) => t.name as string)
  const optional = declaring.filter((t) => support(t) === 'optional').map((t) => t.name as string)
  const tasks = isObject(capabilities.tasks) ? capabilities.tasks : undefined
  const requests = tasks && isObject(tasks.requests) ? tasks.requests : undefined
  const toolCalls = requests && isObject(requests.tools) && isObject(requests.tools.call)
  const details = { required, optional, tasksCapability: Boolean(toolCalls) }
  if ((required.length || optional.length) && !toolCalls) {
    // Clients must then never use tasks on these tools, so a "required" one can never be called.
    return j.breach(`tools ask for task execution but capabilities.tasks.requests.tools.call is not declared: ${list([...required, ...optional])}`, { details }, 'no-capability')
  }
  const note = required.length ? `; ${list(required)} can only be called as a task (clients without tasks cannot use them)` : ''
  return j.pass(`${count(declaring.length, 'tool')} declaring taskSupport${note}`, { details })
}
