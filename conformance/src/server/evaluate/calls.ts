/**
 * Pure verdicts on tools/call exchanges: an unknown tool, arguments that break the schema, and
 * the calls the user explicitly allowed with --call (the kit never calls a tool on its own).
 */
import type { CheckResult } from '../../model.ts'
import { isObject, notTestable, show, verdict } from '../check.ts'
import { callResultProblems, isErrorResult, resultText } from '../content.ts'
import { compileSchema } from '../schema.ts'
import { atLeast, spec } from '../spec.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'

type Tool = Record<string, unknown>

/** A tool name that is not in `names` (so calling it can never run anything). */
export function unknownToolName(names: string[]): string {
  const taken = new Set(names)
  let name = 'mcp-conformance-no-such-tool'
  for (let i = 2; taken.has(name); i++) name = `mcp-conformance-no-such-tool-${i}`
  return name
}

export const UNKNOWN_TOOL = { id: 'tools/call-unknown-tool', title: 'calling an unknown tool is answered with an error' }
export const INVALID_ARGUMENTS = { id: 'tools/call-invalid-arguments', title: 'arguments that break the inputSchema are rejected' }

export function judgeUnknownTool(name: string, outcome: RpcOutcome, version: string): CheckResult {
  const { id, title } = UNKNOWN_TOOL
  const evidence = { spec: spec(version, 'tools#error-handling'), wire: outcome.wire }
  if (outcome.kind === 'error') {
    const code = outcome.error.code
    return verdict(id, title, 'pass', `JSON-RPC error ${String(code)}${code === -32602 ? '' : ' (the spec example uses -32602)'} for ${show(name)}`, evidence)
  }
  if (outcome.kind !== 'result') return verdict(id, title, 'fail', `tools/call ${show(name)} got ${describeOutcome(outcome)}`, evidence)
  if (isErrorResult(outcome.result)) {
    // The spec lists unknown tools under protocol errors; an isError result reads like a failed run of a real tool.
    return verdict(id, title, 'warn', `answered with an isError result (${show(resultText(outcome.result), 100)}) instead of a JSON-RPC error`, evidence)
  }
  return verdict(id, title, 'fail', `tools/call for the nonexistent tool ${show(name)} reported success`, evidence)
}

const WRONG_VALUES: unknown[] = [12345, 'mcp-conformance', true, ['mcp-conformance'], { mcpConformance: 1 }]

/**
 * Arguments that the tool's own inputSchema rejects, confirmed by validating them: missing a
 * required property, a property of the wrong type, or a property the schema forbids.
 */
export function invalidArgumentsFor(tool: Tool, version: string): { args: Record<string, unknown>; why: string } | undefined {
  const schema = tool.inputSchema
  if (!isObject(schema)) return undefined
  const compiled = compileSchema(schema, version)
  if (!compiled.ok) return undefined
  const candidates: Array<{ args: Record<string, unknown>; why: string }> = []
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []
  if (required.length) candidates.push({ args: {}, why: `omit the required property ${show(required[0])}` })
  const properties = isObject(schema.properties) ? schema.properties : {}
  for (const key of Object.keys(properties)) {
    for (const value of WRONG_VALUES) candidates.push({ args: { [key]: value }, why: `give ${show(key)} the value ${show(value)}` })
  }
  if (schema.additionalProperties === false) candidates.push({ args: { mcpConformanceUnexpected: true }, why: 'add a property the schema forbids' })
  return candidates.find((c) => compiled.validate(c.args).length > 0)
}

export function judgeInvalidArguments(tool: string, why: string, outcome: RpcOutcome, version: string): CheckResult {
  const { id, title } = INVALID_ARGUMENTS
  const current = atLeast(version, '2025-11-25')
  const evidence = { spec: spec(version, 'tools#error-handling'), wire: outcome.wire, details: { tool, arguments: why } }
  const what = `calling ${show(tool)} with arguments that ${why}`
  if (outcome.kind === 'result' && isErrorResult(outcome.result)) return verdict(id, title, 'pass', `${what} returned an isError result the model can act on`, evidence)
  if (outcome.kind === 'error') {
    if (!current) return verdict(id, title, 'pass', `${what} returned JSON-RPC error ${String(outcome.error.code)}`, evidence)
    return verdict(id, title, 'warn', `${what} returned JSON-RPC error ${String(outcome.error.code)}; from 2025-11-25 input validation errors are tool execution errors (isError) so the model can self-correct`, evidence)
  }
  if (outcome.kind === 'result') return verdict(id, title, 'fail', `${what} reported success: the server did not validate its input`, { ...evidence, spec: spec(version, 'tools#error-handling') })
  return verdict(id, title, 'fail', `${what} got ${describeOutcome(outcome)}`, evidence)
}

/** Verdicts for one user-allowed call: the result's shape and, with an outputSchema, its structured content. */
export function judgeUserCall(name: string, tool: Tool | undefined, outcome: RpcOutcome | undefined, version: string, capabilities: Record<string, unknown>): CheckResult[] {
  const id = `tools/call/${name}`
  const title = `tools/call ${name} returns a valid CallToolResult`
  const ref = spec(version, 'tools#calling-tools')
  if (!tool || !outcome) return [notTestable(id, title, `tool ${show(name)} is not in tools/list`, { spec: ref })]
  const wire = outcome.wire
  if (requiresTask(tool) && declaresTaskCalls(capabilities)) {
    const taskRef = spec(version, 'tasks#tool-level-negotiation')
    if (outcome.kind === 'error' && outcome.error.code === -32601) return [verdict(id, title, 'pass', 'a task-only tool called without a task was refused with -32601', { spec: taskRef, wire })]
    return [verdict(id, title, 'fail', `the tool requires task execution, so a plain call must get JSON-RPC error -32601; got ${outcome.kind === 'result' ? (isErrorResult(outcome.result) ? `an isError result (${show(resultText(outcome.result), 100)})` : 'a result') : describeOutcome(outcome)}`, { spec: taskRef, wire })]
  }
  if (outcome.kind !== 'result') return [notTestable(id, title, `the call got ${describeOutcome(outcome)}`, { spec: ref, wire })]
  const problems = callResultProblems(outcome.result)
  const blocks = isObject(outcome.result) && Array.isArray(outcome.result.content) ? outcome.result.content : []
  const kinds = blocks.map((b) => (isObject(b) ? String(b.type) : typeof b)).join(', ') || 'no content'
  const shape = problems.length
    ? verdict(id, title, 'fail', problems.slice(0, 3).join('; '), { spec: spec(version, 'tools#tool-result'), wire, details: { problems } })
    : verdict(id, title, 'pass', `${isErrorResult(outcome.result) ? 'isError result' : 'result'} with ${kinds}`, { spec: spec(version, 'tools#tool-result'), wire })
  if (!isObject(tool.outputSchema)) return [shape]
  return [shape, judgeStructured(name, tool.outputSchema, outcome.result, version, wire)]
}

function judgeStructured(name: string, outputSchema: Record<string, unknown>, result: unknown, version: string, wire: unknown[]): CheckResult {
  const id = `tools/call/${name}/structured-content`
  const title = `tools/call ${name} returns structuredContent matching its outputSchema`
  const evidence = { spec: spec(version, 'tools#output-schema'), wire }
  if (isErrorResult(result)) return verdict(id, title, 'skip', 'the call returned an error result, which carries no structured content')
  const structured = isObject(result) ? result.structuredContent : undefined
  if (!isObject(structured)) return verdict(id, title, 'fail', 'the tool declares an outputSchema but returned no structuredContent object', evidence)
  const compiled = compileSchema(outputSchema, version)
  if (!compiled.ok) return notTestable(id, title, `the outputSchema does not compile: ${compiled.reason.slice(0, 200)}`, evidence)
  const errors = compiled.validate(structured)
  if (errors.length) return verdict(id, title, 'fail', `structuredContent violates the outputSchema: ${errors.slice(0, 3).join('; ')}`, { ...evidence, details: { errors } })
  const blocks = isObject(result) && Array.isArray(result.content) ? result.content : []
  const hasText = blocks.some((b) => isObject(b) && b.type === 'text')
  if (!hasText) return verdict(id, title, 'warn', 'structuredContent conforms, but no text block carries it for clients without structured output', evidence)
  return verdict(id, title, 'pass', 'structuredContent conforms to the outputSchema', evidence)
}

function requiresTask(tool: Tool): boolean {
  return isObject(tool.execution) && tool.execution.taskSupport === 'required'
}

function declaresTaskCalls(capabilities: Record<string, unknown>): boolean {
  const tasks = capabilities.tasks
  if (!isObject(tasks) || !isObject(tasks.requests)) return false
  const tools = tasks.requests.tools
  return isObject(tools) && isObject(tools.call)
}
