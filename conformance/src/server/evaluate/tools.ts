/** Pure verdicts on the tool definitions a server lists. */
import type { CheckResult } from '../../model.ts'
import { count, isObject, list, show, verdict } from '../check.ts'
import { compileSchema } from '../schema.ts'
import { atLeast, spec } from '../spec.ts'

type Tool = Record<string, unknown>

/** SEP-986, adopted in 2025-11-25: the characters and length tool names SHOULD have. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']
const TASK_SUPPORT = ['forbidden', 'optional', 'required']

const nothingListed = (id: string, title: string): CheckResult =>
  verdict(id, title, 'skip', 'tools/list returned no tools; nothing to judge')

export function judgeTools(tools: Tool[], version: string, capabilities: Record<string, unknown>): CheckResult[] {
  return [
    judgeNames(tools, version),
    judgeUnique(tools, version),
    judgeInputSchemas(tools, version),
    judgeOutputSchemas(tools, version),
    judgeDescriptions(tools, version),
    judgeAnnotations(tools, version),
    judgeTaskSupport(tools, version, capabilities),
  ]
}

function judgeNames(tools: Tool[], version: string): CheckResult {
  const id = 'tools/names-valid'
  const title = 'tool names follow the naming rules (SEP-986)'
  if (tools.length === 0) return nothingListed(id, title)
  const ref = spec(version, 'tools#tool-names')
  if (!atLeast(version, '2025-11-25')) {
    return verdict(id, title, 'skip', `tool-name rules arrived in 2025-11-25; the negotiated revision ${version} has none`, { spec: spec('2025-11-25', 'tools#tool-names') })
  }
  const bad = tools.map((t) => t.name as string).filter((name) => !TOOL_NAME_PATTERN.test(name))
  if (bad.length === 0) return verdict(id, title, 'pass', `${tools.length === 1 ? 'the name matches' : `all ${tools.length} names match`} ${TOOL_NAME_PATTERN.source}`, { spec: ref })
  return verdict(id, title, 'warn', `${count(bad.length, 'name')} outside ${TOOL_NAME_PATTERN.source}: ${list(bad.map((n) => show(n, 40)))}`, {
    spec: ref,
    details: { invalid: bad },
  })
}

function judgeUnique(tools: Tool[], version: string): CheckResult {
  const id = 'tools/names-unique'
  const title = 'tool names are unique within the server'
  if (tools.length === 0) return nothingListed(id, title)
  const seen = new Map<string, number>()
  for (const tool of tools) seen.set(tool.name as string, (seen.get(tool.name as string) ?? 0) + 1)
  const duplicates = [...seen].filter(([, count]) => count > 1).map(([name, count]) => `${show(name, 40)} ×${count}`)
  // 2025-11-25 words it as a SHOULD; earlier revisions only call the name the tool's identifier.
  const ref = spec(version, atLeast(version, '2025-11-25') ? 'tools#tool-names' : 'tools#tool')
  if (duplicates.length === 0) return verdict(id, title, 'pass', `${count(tools.length, 'distinct name')}`, { spec: ref })
  return verdict(id, title, 'warn', `listed more than once: ${list(duplicates)}; a call by name cannot tell them apart`, { spec: ref, details: { duplicates } })
}

/** Problems of one input/output schema: must be an object schema that compiles. */
function schemaProblems(schema: unknown, version: string): { problems: string[]; note?: string } {
  if (!isObject(schema)) return { problems: [schema === undefined ? 'missing' : 'not a JSON object'] }
  const problems: string[] = []
  if (schema.type !== 'object') problems.push(`"type" is ${show(schema.type)}, not "object"`)
  const compiled = compileSchema(schema, version)
  if (!compiled.ok) problems.push(`does not compile as ${compiled.dialect}: ${compiled.reason.slice(0, 200)}`)
  return { problems, ...(compiled.note ? { note: compiled.note } : {}) }
}

function judgeSchemas(tools: Tool[], version: string, field: 'inputSchema' | 'outputSchema', id: string, title: string): CheckResult {
  const ref = spec(version, atLeast(version, '2025-11-25') ? 'json-schema-usage' : 'tools#tool')
  const failures: Array<{ tool: string; problems: string[] }> = []
  const notes: Array<{ tool: string; note: string }> = []
  for (const tool of tools) {
    const { problems, note } = schemaProblems(tool[field], version)
    if (problems.length) failures.push({ tool: tool.name as string, problems })
    if (note) notes.push({ tool: tool.name as string, note })
  }
  const judged = tools.length
  if (failures.length === 0) {
    const summary = judged === 1 ? 'the one schema is an object schema and compiles' : `all ${judged} schemas are object schemas and compile`
    return verdict(id, title, 'pass', summary, { spec: ref, ...(notes.length ? { details: { notes } } : {}) })
  }
  const summary = failures.map((f) => `${show(f.tool, 40)}: ${f.problems[0]}`)
  return verdict(id, title, 'fail', `${failures.length} of ${judged}: ${list(summary, 3)}`, { spec: ref, details: { failures, notes } })
}

function judgeInputSchemas(tools: Tool[], version: string): CheckResult {
  const id = 'tools/input-schema'
  const title = 'every inputSchema is an object schema that compiles'
  if (tools.length === 0) return nothingListed(id, title)
  return judgeSchemas(tools, version, 'inputSchema', id, title)
}

function judgeOutputSchemas(tools: Tool[], version: string): CheckResult {
  const id = 'tools/output-schema'
  const title = 'every outputSchema is an object schema that compiles'
  const withOutput = tools.filter((t) => t.outputSchema !== undefined)
  if (withOutput.length === 0) return verdict(id, title, 'skip', tools.length ? 'no tool declares an outputSchema' : 'tools/list returned no tools')
  return judgeSchemas(withOutput, version, 'outputSchema', id, title)
}

function judgeDescriptions(tools: Tool[], version: string): CheckResult {
  const id = 'tools/descriptions'
  const title = 'every tool has a description'
  if (tools.length === 0) return nothingListed(id, title)
  const ref = spec(version, 'tools#tool')
  const mistyped = tools.filter((t) => t.description !== undefined && typeof t.description !== 'string').map((t) => t.name as string)
  if (mistyped.length) return verdict(id, title, 'fail', `"description" is not a string for ${list(mistyped)}`, { spec: ref })
  const missing = tools.filter((t) => typeof t.description !== 'string' || t.description.trim() === '').map((t) => t.name as string)
  // Optional in the schema, but it is all a model has to choose the tool by.
  if (missing.length) return verdict(id, title, 'warn', `no description for ${list(missing.map((n) => show(n, 40)))}`, { spec: ref, details: { missing } })
  return verdict(id, title, 'pass', `${tools.length === 1 ? 'the tool is' : `all ${tools.length} tools are`} described`, { spec: ref })
}

function judgeAnnotations(tools: Tool[], version: string): CheckResult {
  const id = 'tools/annotations'
  const title = 'tool annotations are well-typed'
  const annotated = tools.filter((t) => t.annotations !== undefined || t.title !== undefined)
  if (annotated.length === 0) return verdict(id, title, 'skip', tools.length ? 'no tool carries annotations or a title' : 'tools/list returned no tools')
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
  const ref = spec(version, 'tools#tool')
  if (problems.length) return verdict(id, title, 'fail', list(problems, 3), { spec: ref, details: { problems } })
  return verdict(id, title, 'pass', `${count(annotated.length, 'annotated tool')}, all fields well-typed`, { spec: ref })
}

function judgeTaskSupport(tools: Tool[], version: string, capabilities: Record<string, unknown>): CheckResult {
  const id = 'tools/task-support'
  const title = 'execution.taskSupport is valid and backed by the tasks capability'
  const declaring = tools.filter((t) => t.execution !== undefined)
  if (declaring.length === 0) return verdict(id, title, 'skip', tools.length ? 'no tool declares execution.taskSupport' : 'tools/list returned no tools')
  const ref = spec(atLeast(version, '2025-11-25') ? version : '2025-11-25', 'tasks#tool-level-negotiation')
  const invalid = declaring.filter((t) => !isObject(t.execution) || (t.execution.taskSupport !== undefined && !TASK_SUPPORT.includes(t.execution.taskSupport as string)))
  if (invalid.length) {
    return verdict(id, title, 'fail', `invalid execution.taskSupport on ${list(invalid.map((t) => show(t.name, 40)))} (allowed: ${TASK_SUPPORT.join(', ')})`, { spec: ref })
  }
  const support = (t: Tool) => (t.execution as Record<string, unknown>).taskSupport
  const required = declaring.filter((t) => support(t) === 'required').map((t) => t.name as string)
  const optional = declaring.filter((t) => support(t) === 'optional').map((t) => t.name as string)
  const tasks = isObject(capabilities.tasks) ? capabilities.tasks : undefined
  const requests = tasks && isObject(tasks.requests) ? tasks.requests : undefined
  const toolCalls = requests && isObject(requests.tools) && isObject(requests.tools.call)
  const details = { required, optional, tasksCapability: Boolean(toolCalls) }
  if ((required.length || optional.length) && !toolCalls) {
    // Without tasks.requests.tools.call clients must not use tasks, so a "required" tool can never be called.
    return verdict(id, title, 'warn', `tools ask for task execution but capabilities.tasks.requests.tools.call is not declared: ${list([...required, ...optional])}`, { spec: ref, details })
  }
  const note = required.length ? `; ${list(required)} can only be called as a task (clients without tasks cannot use them)` : ''
  return verdict(id, title, 'pass', `${count(declaring.length, 'tool')} declaring taskSupport${note}`, { spec: ref, details })
}
