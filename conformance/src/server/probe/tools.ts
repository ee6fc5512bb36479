/** The tools area: list, judge every definition, and make only the calls that are safe or allowed. */
import type { CheckResult } from '../../model.ts'
import { isObject, notTestable, verdict } from '../check.ts'
import {
  INVALID_ARGUMENTS,
  invalidArgumentsFor,
  judgeInvalidArguments,
  judgeUnknownTool,
  judgeUserCall,
  UNKNOWN_TOOL,
  unknownToolName,
} from '../evaluate/calls.ts'
import type { Session } from '../evaluate/lifecycle.ts'
import { judgeList, listChecks, namedItems } from '../evaluate/lists.ts'
import { defaultServerName, judgeProjection, judgeSchemaSize } from '../evaluate/projection.ts'
import { judgeTools } from '../evaluate/tools.ts'
import type { Wire } from '../wire/types.ts'
import { drainList } from './lists.ts'

export interface ToolCall {
  name: string
  arguments: Record<string, unknown>
}

export interface ToolProbeOptions {
  requestTimeoutMs: number
  calls: ToolCall[]
  serverName?: string
}

/** The definition checks computed over nothing, to reuse their ids and titles. */
function definitionChecks(session: Session): CheckResult[] {
  return [...judgeTools([], session.version, session.capabilities), judgeProjection('server', []), judgeSchemaSize([], session.version)]
}

export function toolsNotDeclared(session: Session, options: ToolProbeOptions): CheckResult[] {
  const reason = 'the server does not declare the tools capability'
  const all = [...listChecks('tools'), ...definitionChecks(session), UNKNOWN_TOOL, INVALID_ARGUMENTS]
  const checks = all.map((c) => verdict(c.id, c.title, 'skip', reason))
  // A call the user asked for cannot be made: a missing prerequisite, not "not applicable".
  for (const call of options.calls) checks.push(...judgeUserCall(call.name, undefined, undefined, session.version, session.capabilities))
  return checks
}

export async function probeTools(wire: Wire, session: Session, options: ToolProbeOptions): Promise<CheckResult[]> {
  const v = session.version
  const serverName = options.serverName ?? defaultServerName(session.serverInfo.name)
  const obs = await drainList(wire, 'tools', options.requestTimeoutMs)
  const checks = judgeList(obs, v)
  const tools = namedItems(obs)
  if (obs.stop === 'failed' || obs.stop === 'bad-page') {
    checks.push(...definitionChecks(session).map((c) => notTestable(c.id, c.title, 'tools/list failed')))
  } else {
    checks.push(...judgeTools(tools, v, session.capabilities), judgeProjection(serverName, tools), judgeSchemaSize(tools, v))
  }

  const missing = unknownToolName(tools.map((t) => t.name as string))
  const unknown = await wire.request('tools/call', { name: missing, arguments: {} }, options.requestTimeoutMs)
  checks.push(judgeUnknownTool(missing, unknown, v))
  checks.push(await probeInvalidArguments(wire, tools, v, options))

  for (const call of options.calls) {
    const tool = tools.find((t) => t.name === call.name)
    const outcome = tool ? await wire.request('tools/call', { name: call.name, arguments: call.arguments }, options.requestTimeoutMs) : undefined
    checks.push(...judgeUserCall(call.name, tool, outcome, v, session.capabilities))
  }
  return checks
}

async function probeInvalidArguments(wire: Wire, tools: Record<string, unknown>[], version: string, options: ToolProbeOptions): Promise<CheckResult> {
  const { id, title } = INVALID_ARGUMENTS
  if (options.calls.length === 0) return verdict(id, title, 'skip', 'no tool was named with --call; the kit calls real tools only when allowed')
  for (const call of options.calls) {
    const tool = tools.find((t) => t.name === call.name)
    if (!tool || (isObject(tool.execution) && tool.execution.taskSupport === 'required')) continue
    const invalid = invalidArgumentsFor(tool, version)
    if (!invalid) continue
    const outcome = await wire.request('tools/call', { name: call.name, arguments: invalid.args }, options.requestTimeoutMs)
    return judgeInvalidArguments(call.name, invalid.why, outcome, version)
  }
  return verdict(id, title, 'skip', 'no tool named with --call has an inputSchema constraint the kit can violate')
}
