/**
 * The tool calls of the modern run: only those it was allowed to make (--call), as for a legacy
 * server, since a tool may act on the world; and, once, the first of those tools whose inputSchema
 * the kit can break, with arguments it rejects (refused before anything runs). Over HTTP with
 * Mcp-Name. Each request is bounded by the run's request timeout.
 */
import { isObject } from '../check.ts'
import type { ToolCall } from '../probe/tools.ts'
import type { ModernRevision } from '../spec.ts'
import type { HttpWire } from '../wire/http.ts'
import type { ServerWire } from '../wire/server-wire.ts'
import type { RpcOutcome, Wire } from '../wire/types.ts'
import { invalidArguments, type InvalidCall, type ToolCallMade } from './calls.ts'
import { paramHeaders } from './param-headers.ts'
import type { ParamCall, ParamProbe } from './param-judge.ts'
import type { NumericProbe } from './param-numeric.ts'
import { meta, variant } from './request-meta.ts'
import type { Labelled } from './verdicts.ts'

/** Appended to a header value for the invalid-characters probe: U+00E9 goes out as the byte 0xE9, which is no visible ASCII. */
const INVALID_SUFFIX = '\u00e9'

type Send = (label: string, method: string, params: Record<string, unknown>, via?: Wire) => Promise<RpcOutcome>

function listedTools(outcome: RpcOutcome | undefined): Record<string, unknown>[] {
  const tools = outcome?.kind === 'result' && isObject(outcome.result) ? outcome.result.tools : undefined
  return Array.isArray(tools) ? tools.filter(isObject) : []
}

/** `toolList`: the run's tools/list answer, whose entries the verdicts judge the calls against. */
export async function makeCalls(wire: ServerWire, revision: ModernRevision, timeoutMs: number, calls: readonly ToolCall[], toolList: RpcOutcome | undefined, send: Send) {
  const { http } = wire
  const listed = listedTools(toolList)
  const called: Labelled[] = []
  const made: ToolCallMade[] = []
  let invalid: InvalidCall | undefined
  const params: ParamCall[] = []
  for (const call of calls) {
    const tool = listed.find((t) => t.name === call.name)
    // The client behavior of the revision: an Mcp-Param header for each annotated parameter the arguments give.
    const { headers, omitted, integers } = paramHeaders(tool?.inputSchema, call.arguments)
    const via = http ? variant(http, revision, { 'mcp-name': call.name, ...headers }, timeoutMs) : wire
    const label = `tools/call of ${call.name}`
    const outcome = await send(label, 'tools/call', { name: call.name, arguments: call.arguments, _meta: meta(revision) }, via)
    called.push({ label, outcome })
    if (http && tool) params.push({ name: call.name, arguments: call.arguments, headers, omitted, integers, outcome })
    if (!tool) continue
    made.push({ name: call.name, tool, outcome })
    const bad = invalid || (isObject(tool.execution) && tool.execution.taskSupport === 'required') ? undefined : invalidArguments(tool)
    if (bad) invalid = { name: call.name, tool, why: bad.why, outcome: await send(`tools/call of ${call.name} with arguments that ${bad.why}`, 'tools/call', { name: call.name, arguments: bad.args, _meta: meta(revision) }, via) }
  }
  const paramProbe = http ? await probeInvalidParam(http, revision, timeoutMs, params, send) : undefined
  const numericProbe = http ? await probeNumericParam(http, revision, timeoutMs, params, send) : undefined
  return { called, made, invalid, params, paramProbe, numericProbe }
}

const refused = (outcome: RpcOutcome) => outcome.kind === 'error' || (outcome.http?.status ?? 0) >= 400

/** The first call that carried an Mcp-Param header and was not refused, once more with invalid characters in that header. */
async function probeInvalidParam(wire: HttpWire, revision: ModernRevision, timeoutMs: number, params: ParamCall[], send: Send): Promise<ParamProbe | undefined> {
  const base = params.find((p) => Object.keys(p.headers).length > 0 && !refused(p.outcome))
  if (!base) return undefined
  const [header, value] = Object.entries(base.headers)[0]!
  const sent = `${value}${INVALID_SUFFIX}`
  const via = variant(wire, revision, { 'mcp-name': base.name, ...base.headers, [header]: sent }, timeoutMs)
  const outcome = await send(`tools/call of ${base.name} with ${header} ending in 0xE9`, 'tools/call', { name: base.name, arguments: base.arguments, _meta: meta(revision) }, via)
  return { name: base.name, header, outcome }
}

/** The first call served with an integer Mcp-Param header, once more with that number written as "<n>.0". */
async function probeNumericParam(wire: HttpWire, revision: ModernRevision, timeoutMs: number, params: ParamCall[], send: Send): Promise<NumericProbe | undefined> {
  const base = params.find((p) => Object.keys(p.integers).length > 0 && !refused(p.outcome))
  if (!base) return undefined
  const [header, value] = Object.entries(base.integers)[0]!
  const sent = `${value}.0`
  const via = variant(wire, revision, { 'mcp-name': base.name, ...base.headers, [header]: sent }, timeoutMs)
  const outcome = await send(`tools/call of ${base.name} with ${header}: ${sent}`, 'tools/call', { name: base.name, arguments: base.arguments, _meta: meta(revision) }, via)
  return { name: base.name, header, value, sent, outcome }
}
