/**
 * The tool calls of the modern run: only those it was allowed to make (--call), as for a legacy
 * server, since a tool may act on the world; and, once, the first of those tools whose inputSchema
 * the kit can break, with arguments it rejects (refused before anything runs). Over HTTP with
 * Mcp-Name. Each request is bounded by the run's request timeout.
 */
import { isObject } from '../check.ts'
import type { ToolCall } from '../probe/tools.ts'
import type { ModernRevision } from '../spec.ts'
import { HttpWire } from '../wire/http.ts'
import type { RpcOutcome, Wire } from '../wire/types.ts'
import { invalidArguments, type InvalidCall, type ToolCallMade } from './calls.ts'
import { meta, variant } from './request-meta.ts'
import type { Labelled } from './verdicts.ts'

type Send = (label: string, method: string, params: Record<string, unknown>, via?: Wire) => Promise<RpcOutcome>

function listedTools(outcome: RpcOutcome | undefined): Record<string, unknown>[] {
  const tools = outcome?.kind === 'result' && isObject(outcome.result) ? outcome.result.tools : undefined
  return Array.isArray(tools) ? tools.filter(isObject) : []
}

/** `toolList`: the run's tools/list answer, whose entries the verdicts judge the calls against. */
export async function makeCalls(wire: Wire, revision: ModernRevision, timeoutMs: number, calls: readonly ToolCall[], toolList: RpcOutcome | undefined, send: Send) {
  const listed = listedTools(toolList)
  const called: Labelled[] = []
  const made: ToolCallMade[] = []
  let invalid: InvalidCall | undefined
  for (const call of calls) {
    const via = wire instanceof HttpWire ? variant(wire, revision, { 'mcp-name': call.name }, timeoutMs) : wire
    const label = `tools/call of ${call.name}`
    const outcome = await send(label, 'tools/call', { name: call.name, arguments: call.arguments, _meta: meta(revision) }, via)
    called.push({ label, outcome })
    const tool = listed.find((t) => t.name === call.name)
    if (!tool) continue
    made.push({ name: call.name, tool, outcome })
    const bad = invalid || (isObject(tool.execution) && tool.execution.taskSupport === 'required') ? undefined : invalidArguments(tool)
    if (bad) invalid = { name: call.name, tool, why: bad.why, outcome: await send(`tools/call of ${call.name} with arguments that ${bad.why}`, 'tools/call', { name: call.name, arguments: bad.args, _meta: meta(revision) }, via) }
  }
  return { called, made, invalid }
}
