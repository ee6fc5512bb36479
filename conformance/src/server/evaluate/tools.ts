/** Pure verdicts on the tool definitions a server lists. */
import type { CheckResult } from '../../model.ts'
import { count, isObject, judge, list, show } from '../check.ts'
import type { CheckDef } from '../registry/types.ts'
import { ANNOTATIONS, DESCRIPTIONS, INPUT_SCHEMA, NAMES_UNIQUE, NAMES_VALID, OUTPUT_SCHEMA, TASK_SUPPORT } from '../registry/tools.ts'
import { compileSchema } from '../schema.ts'

type Tool = Record<string, unknown>

/** The characters and length the 2025-11-25 tool-name rules allow. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']
const TASK_SUPPORT_VALUES = ['forbidden', 'optional', 'required']

/** The definitions judgeTools reports, for skips and "not testable" when there is no list. */
export const DEFINITION_CHECKS: CheckDef[] = [NAMES_VALID, NAMES_UNIQUE, INPUT_SCHEMA, OUTPUT_SCHEMA, DESCRIPTIONS, ANNOTATIONS, TASK_SUPPORT]

export function judgeTools(tools: Tool[], version: string, capabilities: Record<string, unknown>): CheckResult[] {
  return [
    judgeNames(tools, version),
    judgeUnique(tools, version),
    judgeSchemas(tools, version, INPUT_SCHEMA, 'inputSchema'),
    judgeSchemas(tools.filter((t) => t.outputSchema !== undefined), version, OUTPUT_SCHEMA, 'outputSchema', tools.length),
    judgeDescriptions(tools, version),
    judgeAnnotations(tools, version),
    judgeTaskSupport(tools, version, capabilities),
  ]
}

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

/** Problems of one input/output schema, and a note when part of it could not be judged. */
function schemaProblems(name: string, schema: unknown, version: string): { problems: SchemaProblem[]; note?: string; dialect?: string } {
  if (!isObject(schema)) return { problems: [{ tool: name, problem: schema === undefined ? 'missing' : `${show(schema, 40)} is not a JSON object` }] }
  const problems: SchemaProblem[] = []
  if (schema.type !== 'object') problems.push({ tool: name, problem: `"type" is ${show(schema.type)}, not "object"`, ruleCase: 'object' })
  const compiled = compileSchema(schema, version)
  if (compiled.ok === 'unjudged') return { problems, note: compiled.reason, ...(compiled.dialect ? { dialect: compiled.dialect } : {}) }
  if (compiled.ok === false) problems.push({ tool: name, problem: `invalid ${compiled.dialect} schema: ${compiled.reason.slice(0, 200)}`, ruleCase: 'dialect' })
  return { problems, dialect: compiled.dialect }
}

function judgeSchemas(tools: Tool[], version: string, def: CheckDef, field: 'inputSchema' | 'outputSchema', listed = tools.length): CheckResult {
  const j = judge(def, version)
  if (!j.applies) return j.notInRevision()
  if (tools.length === 0) return j.skip(listed ? `no tool declares an ${field}` : 'tools/list returned no tools; nothing to judge')
  const failures: SchemaProblem[] = []
  const notes: Array<{ tool: string; note: string }> = []
  const dialects = new Map<string, number>()
  for (const tool of tools) {
    const name = tool.name as string
    const { problems, note, dialect } = schemaProblems(name, tool[field], version)
    failures.push(...problems)
    if (note) notes.push({ tool: name, note })
    if (dialect && !note) dialects.set(dialect, (dialects.get(dialect) ?? 0) + 1)
  }
  const details = { dialects: Object.fromEntries(dialects), ...(failures.length ? { failures } : {}), ...(notes.length ? { unjudged: notes } : {}) }
  if (failures.length) {
    const first = failures[0]!
    const text = failures.map((f) => `${show(f.tool, 40)}: ${f.problem}`)
    return j.breach(`${count(new Set(failures.map((f) => f.tool)).size, field)} of ${tools.length} fail: ${list(text, 3)}`, { details }, first.ruleCase)
  }
  const judged = tools.length - notes.length
  if (judged === 0) return j.skip(`no ${field} could be judged: ${list(notes.map((n) => `${show(n.tool, 40)}: ${n.note}`), 2)}`, { details })
  const inDialects = [...dialects].map(([d, n]) => `${n} in ${d}`).join(', ')
  const unjudged = notes.length ? `; ${notes.length} not judged (${notes[0]!.note})` : ''
  return j.pass(`${judged === 1 ? 'the one judged schema is a valid object schema' : `all ${judged} judged schemas are valid object schemas`} (${inDialects})${unjudged}`, { details })
}

function judgeDescriptions(tools: Tool[], version: string): CheckResult {
  const j = judge(DESCRIPTIONS, version)
  if (tools.length === 0) return j.skip('tools/list returned no tools; nothing to judge')
  const mistyped = tools.filter((t) => t.description !== undefined && typeof t.description !== 'string').map((t) => t.name as string)
  if (mistyped.length) return j.breach(`"description" is not a string for ${list(mistyped.map((n) => show(n, 40)))}`)
  const missing = tools.filter((t) => typeof t.description !== 'string' || t.description.trim() === '').map((t) => t.name as string)
  // Optional in the schema, but it is all a model has to choose the tool by.
  if (missing.length) return j.breach(`no description for ${list(missing.map((n) => show(n, 40)))}`, { details: { missing } }, 'missing')
  return j.pass(`${tools.length === 1 ? 'the tool is' : `all ${tools.length} tools are`} described`)
}

function judgeAnnotations(tools: Tool[], version: string): CheckResult {
  const j = judge(ANNOTATIONS, version)
  if (!j.applies) return j.notInRevision()
  const annotated = tools.filter((t) => t.annotations !== undefined || t.title !== undefined)
  if (annotated.length === 0) return j.skip(tools.length ? 'no tool carries annotations or a title' : 'tools/list returned no tools; nothing to judge')
  const problems: string[] = []
  for (const tool of annotated) {
    const name = show(tool.name, 40)
    if (tool.title !== undefined && typeof tool.title !== 'string') problems.push(`${name}: "title" is not a string`)
    if (tool.annotations === undefined) continue
    if (!isObject(tool.annotations)) {
      problems.push(`${name}: "annotations" is not an object`)
      continue
    }
    const a = tool.annotations
    if (a.title !== undefined && typeof a.title !== 'string') problems.push(`${name}: annotations.title is not a string`)
    for (const hint of HINTS) if (a[hint] !== undefined && typeof a[hint] !== 'boolean') problems.push(`${name}: annotations.${hint} is not a boolean`)
  }
  if (problems.length) return j.breach(list(problems, 3), { details: { problems } })
  return j.pass(`${count(annotated.length, 'annotated tool')}, all fields well-typed`)
}

function judgeTaskSupport(tools: Tool[], version: string, capabilities: Record<string, unknown>): CheckResult {
  const j = judge(TASK_SUPPORT, version)
  if (!j.applies) return j.notInRevision()
  const declaring = tools.filter((t) => t.execution !== undefined)
  if (declaring.length === 0) return j.skip(tools.length ? 'no tool declares execution.taskSupport' : 'tools/list returned no tools; nothing to judge')
  const invalid = declaring.filter((t) => !isObject(t.execution) || (t.execution.taskSupport !== undefined && !TASK_SUPPORT_VALUES.includes(t.execution.taskSupport as string)))
  if (invalid.length) return j.breach(`invalid execution.taskSupport on ${list(invalid.map((t) => show(t.name, 40)))} (allowed: ${TASK_SUPPORT_VALUES.join(', ')})`)
  const support = (t: Tool) => (t.execution as Record<string, unknown>).taskSupport
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
