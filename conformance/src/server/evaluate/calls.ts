/**
 * Pure verdicts on tools/call exchanges: an unknown tool, arguments that break the schema, and
 * the calls the user explicitly allowed with --call (the kit never calls a tool on its own).
 */
import { declaresToolTasks } from '@mcp-bridge/plugin/rules'
import type { CheckResult } from '../../model.ts'
import { isObject, judge, list, show, unreadable } from '../check.ts'
import { INVALID_ARGUMENTS, STRUCTURED_CONTENT, UNKNOWN_TOOL, USER_CALL } from '../registry/tools.ts'
import { compileSchema } from '../schema.ts'
import { validateShape } from '../shapes.ts'
import { atLeast } from '../spec.ts'
import { describeOutcome, type RpcOutcome } from '../wire/types.ts'
import { cut } from '../quote.ts'

type Tool = Record<string, unknown>

export { INVALID_ARGUMENTS, UNKNOWN_TOOL }

const unanswered = (outcome: RpcOutcome) => outcome.kind === 'timeout' || outcome.kind === 'closed'

/** A tool name that is not in `names` (so calling it can never run anything). */
export function unknownToolName(names: string[]): string {
  const taken = new Set(names)
  let name = 'mcp-conformance-no-such-tool'
  for (let i = 2; taken.has(name); i++) name = `mcp-conformance-no-such-tool-${i}`
  return name
}

export function judgeUnknownTool(name: string, outcome: RpcOutcome, version: string): CheckResult {
  const j = judge(UNKNOWN_TOOL, version)
  const wire = outcome.wire
  const blocked = unreadable(j, `tools/call ${show(name)}`, outcome)
  if (blocked) return blocked
  if (outcome.kind === 'error') {
    const code = outcome.error.code
    return j.pass(`JSON-RPC error ${String(code)}${code === -32602 ? '' : ' (the spec example uses -32602)'} for ${show(name)}`, { wire })
  }
  if (outcome.kind !== 'result') return j.breach(`tools/call ${show(name)} got ${describeOutcome(outcome)}`, { wire }, unanswered(outcome) ? 'reply' : undefined)
  if (isErrorResult(outcome.result)) {
    // An isError result reads to a model like a failed run of a real tool.
    return j.breach(`answered with an isError result (${show(resultText(outcome.result), 100)}), not with a JSON-RPC error`, { wire })
  }
  return j.breach(`tools/call for the nonexistent tool ${show(name)} reported success`, { wire })
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
  if (compiled.ok !== true) return undefined
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
  const j = judge(INVALID_ARGUMENTS, version)
  const observed = { wire: outcome.wire, details: { tool, arguments: why } }
  const what = `calling ${show(tool)} with arguments that ${why}`
  const blocked = unreadable(j, what, outcome)
  if (blocked) return blocked
  if (outcome.kind === 'result' && isErrorResult(outcome.result)) return j.pass(`${what} returned an isError result the model can act on`, observed)
  // Both are rejections; which of the two mechanisms the spec files input errors under is not a requirement.
  if (outcome.kind === 'error') return j.pass(`${what} returned JSON-RPC error ${String(outcome.error.code)}`, observed)
  if (outcome.kind === 'result') return j.breach(`${what} reported success: the server did not validate its input`, observed)
  return j.breach(`${what} got ${describeOutcome(outcome)}`, observed, unanswered(outcome) ? 'reply' : undefined)
}

/** Why a --call could not be made: the tool list failed, does not hold the tool, or tools are not declared at all. */
export type Uncallable =
  | { kind: 'list-failed'; prerequisite: string }
  | { kind: 'not-listed'; listed: string[] }
  | { kind: 'undeclared'; servedAnyway: boolean }

/** A --call the kit could not make. Only a failure of the server's makes it "not testable"; a name the server never offered is the user's to fix. */
export function judgeUncallable(name: string, why: Uncallable, version: string): CheckResult {
  const j = judge(USER_CALL, version, { name })
  switch (why.kind) {
    case 'list-failed':
      return j.notTestable(why.prerequisite, `the kit cannot tell whether ${show(name)} is a tool without a tool list`)
    case 'not-listed': {
      const listed = why.listed.length ? `it lists ${list(why.listed.map((n) => show(n, 40)))}` : 'it lists no tools'
      return j.error(`--call ${show(name)}: tools/list does not list this tool (${listed}); check the --call name against the listed tools`)
    }
    case 'undeclared':
      if (why.servedAnyway) return j.notTestable('tools/undeclared', `the server serves tools without declaring the tools capability, so ${show(name)} was not called`)
      return j.error(`--call ${show(name)}: the server does not declare the tools capability, so it has no tools to call; check the --call against the server`)
  }
}

/** Verdicts for one user-allowed call: the result's shape and, with an outputSchema, its structured content. */
export function judgeUserCall(name: string, tool: Tool, outcome: RpcOutcome, version: string, capabilities: Record<string, unknown>): CheckResult[] {
  const j = judge(USER_CALL, version, { name })
  const wire = outcome.wire
  const blocked = unreadable(j, `tools/call ${show(name)}`, outcome)
  if (blocked) return [blocked]
  if (requiresTask(tool) && declaresToolTasks(capabilities) && atLeast(version, '2025-11-25')) {
    if (outcome.kind === 'error' && outcome.error.code === -32601) return [j.pass('a task-only tool called without a task was refused with -32601', { wire })]
    const got = outcome.kind === 'result' ? (isErrorResult(outcome.result) ? `an isError result (${show(resultText(outcome.result), 100)})` : 'a result') : describeOutcome(outcome)
    return [j.breach(`the tool requires task execution, so a plain call must get JSON-RPC error -32601; got ${got}`, { wire }, 'task-only')]
  }
  // No JSON-RPC response at all (none, or an HTTP answer without one) breaks the reply rule.
  if (outcome.kind === 'timeout' || outcome.kind === 'closed' || outcome.kind === 'malformed') return [j.breach(`the call got ${describeOutcome(outcome)}`, { wire }, 'reply')]
  // A protocol error is one of the two ways the spec lets a tool call fail: there is no result to judge.
  if (outcome.kind === 'error') return [j.breach(`the call was answered with ${describeOutcome(outcome)}, a protocol error; there is no result to judge`, { wire }, 'protocol-error')]
  const { issues, unjudged } = validateShape('CallToolResult', outcome.result, version)
  const blocks = isObject(outcome.result) && Array.isArray(outcome.result.content) ? outcome.result.content : []
  const kinds = blocks.map((b) => (isObject(b) ? String(b.type) : typeof b)).join(', ') || 'no content'
  const problems = issues.map((issue) => issue.text)
  const details = { ...(problems.length ? { problems } : {}), ...(unjudged.length ? { notInRevision: unjudged } : {}) }
  const observed = { wire, ...(Object.keys(details).length ? { details } : {}) }
  const embedded = blocks.some((b) => isObject(b) && b.type === 'resource')
  const shape = problems.length
    ? j.breach(`the result breaks the ${version} CallToolResult schema: ${list(problems, 3)}`, observed)
    : embedded && !isObject(capabilities.resources) && atLeast(version, '2025-06-18')
      ? j.breach(`the result embeds a resource (${kinds}), but the server does not declare the resources capability`, observed, 'embedded')
      : j.pass(`${isErrorResult(outcome.result) ? 'isError result' : 'result'} with ${kinds}`, observed)
  if (!isObject(tool.outputSchema)) return [shape]
  return [shape, judgeStructured(name, tool.outputSchema, outcome.result, version, wire)]
}

function judgeStructured(name: string, outputSchema: Record<string, unknown>, result: unknown, version: string, wire: unknown[]): CheckResult {
  const j = judge(STRUCTURED_CONTENT, version, { name })
  if (!j.applies) return j.notInRevision()
  if (isErrorResult(result)) return j.skip('the call returned an error result, which carries no structured content')
  const structured = isObject(result) ? result.structuredContent : undefined
  if (!isObject(structured)) return j.breach('the tool declares an outputSchema but returned no structuredContent object', { wire })
  const compiled = compileSchema(outputSchema, version)
  if (compiled.ok === 'unjudged') return j.skip(`the outputSchema could not be judged: ${compiled.reason}`, { wire })
  if (!compiled.ok) return j.notTestable('tools/output-schema', `the outputSchema is invalid (${cut(compiled.reason, 200)}), so there is nothing to hold structuredContent to`, { wire })
  const errors = compiled.validate(structured)
  if (errors.length) return j.breach(`structuredContent violates the outputSchema: ${errors.slice(0, 3).join('; ')}`, { wire, details: { errors } })
  const blocks = isObject(result) && Array.isArray(result.content) ? result.content : []
  const hasText = blocks.some((b) => isObject(b) && b.type === 'text')
  if (!hasText) return j.breach('structuredContent conforms, but no text block carries it for clients without structured output', { wire }, 'text-block')
  return j.pass('structuredContent conforms to the outputSchema', { wire })
}

function requiresTask(tool: Tool): boolean {
  return isObject(tool.execution) && tool.execution.taskSupport === 'required'
}


/** A result that reads as "it worked": not an error result. */
export function isErrorResult(result: unknown): boolean {
  return isObject(result) && result.isError === true
}

/** The text of an error result, for messages. */
export function resultText(result: unknown, max = 160): string {
  if (!isObject(result) || !Array.isArray(result.content)) return ''
  const text = result.content
    .filter((b): b is Record<string, unknown> => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join(' ')
  return text.length <= max ? text : `${text.slice(0, max)}…`
}
