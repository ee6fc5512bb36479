/** The tools area: list, judge every definition, and make only the calls that are safe or allowed. */
import type { CheckResult } from '../../model.ts'
import { isObject, judge } from '../check.ts'
import { invalidArgumentsFor, judgeInvalidArguments, judgeUncallable, judgeUnknownTool, judgeUserCall, unknownToolName, type Uncallable } from '../evaluate/calls.ts'
import type { Session } from '../evaluate/lifecycle.ts'
import { judgeList, listChecks, listFailed, listPrerequisite, namedItems, pageShapes } from '../evaluate/lists.ts'
import { defaultServerName, judgeProjection, judgeSchemaSize } from '../evaluate/projection.ts'
import { DEFINITION_CHECKS, definitionIssue, judgeTools } from '../evaluate/tools.ts'
import { judgeUndeclared } from '../evaluate/undeclared.ts'
import { PROJECTION, SCHEMA_SIZE } from '../registry/bridge.ts'
import type { CheckDef } from '../registry/types.ts'
import { INVALID_ARGUMENTS, TOOLS_UNDECLARED, UNKNOWN_TOOL } from '../registry/tools.ts'
import type { Wire } from '../wire/types.ts'
import { drainList } from './lists.ts'
import { callProgressToken } from '../progress-tokens.ts'

export interface ToolCall {
  name: string
  arguments: Record<string, unknown>
}

export interface ToolProbeOptions {
  requestTimeoutMs: number
  calls: ToolCall[]
  serverName?: string
}

const DEPENDENT: CheckDef[] = [...DEFINITION_CHECKS, PROJECTION, SCHEMA_SIZE]

/** Without the tools capability: ask tools/list once (it must not list tools), and skip the rest. */
export async function toolsNotDeclared(wire: Wire, session: Session, options: ToolProbeOptions): Promise<CheckResult[]> {
  const v = session.version
  const outcome = await wire.request('tools/list', {}, options.requestTimeoutMs)
  const undeclared = judgeUndeclared(TOOLS_UNDECLARED, v, 'tools/list', 'tools', outcome, (result) => (Array.isArray(result.tools) ? result.tools : undefined))
  const reason = 'the server does not declare the tools capability'
  const checks = [undeclared, ...[...listChecks('tools'), ...DEPENDENT, UNKNOWN_TOOL, INVALID_ARGUMENTS].map((def) => skipOrNot(def, v, reason))]
  // A call the user asked for cannot be made: the server's fault only if it serves tools it did not declare.
  const why: Uncallable = { kind: 'undeclared', servedAnyway: undeclared.status === 'fail' }
  for (const call of options.calls) checks.push(judgeUncallable(call.name, why, v))
  return checks
}

function skipOrNot(def: CheckDef, version: string, reason: string): CheckResult {
  const j = judge(def, version)
  return j.applies ? j.skip(reason) : j.notInRevision()
}

export async function probeTools(wire: Wire, session: Session, options: ToolProbeOptions): Promise<CheckResult[]> {
  const v = session.version
  const serverName = options.serverName ?? defaultServerName(session.serverInfo.name)
  const obs = await drainList(wire, 'tools', options.requestTimeoutMs)
  // Each step below is synchronous and linear in the list; between them the kit serves its event
  // loop, so a long list does not keep it from a signal (SIGINT/SIGTERM) for the whole judging.
  await turn()
  const shapes = pageShapes(obs, v)
  await turn()
  const checks = [judge(TOOLS_UNDECLARED, v).skip('the server declares the tools capability'), ...judgeList(obs, v, shapes, definitionIssue)]
  const tools = namedItems(obs)
  const failed = listFailed(obs)
  const prerequisite = listPrerequisite(obs)
  if (failed) checks.push(...DEPENDENT.map((def) => notTestable(def, v, prerequisite, 'there is no tool list to judge')))
  else {
    await turn()
    checks.push(...judgeTools(tools, v, session.capabilities, shapes.issues.filter(definitionIssue)))
    await turn()
    checks.push(judgeProjection(serverName, tools, v, session.capabilities))
    await turn()
    checks.push(judgeSchemaSize(tools, v))
    await turn()
  }

  const missing = unknownToolName(tools.map((t) => t.name as string))
  const unknown = await wire.request('tools/call', { name: missing, arguments: {} }, options.requestTimeoutMs)
  checks.push(judgeUnknownTool(missing, unknown, v))
  checks.push(await probeInvalidArguments(wire, tools, v, options, failed ? prerequisite : undefined))

  for (const [i, call] of options.calls.entries()) {
    const tool = tools.find((t) => t.name === call.name)
    if (!tool) {
      checks.push(judgeUncallable(call.name, failed ? { kind: 'list-failed', prerequisite } : { kind: 'not-listed', listed: tools.map((t) => t.name as string) }, v))
      continue
    }
    // With a progressToken, as clients that show progress send it: a server may then report progress, which is judged.
    const params = { name: call.name, arguments: call.arguments, _meta: { progressToken: callProgressToken(i + 1) } }
    checks.push(...judgeUserCall(call.name, tool, await wire.request('tools/call', params, options.requestTimeoutMs), v, session.capabilities))
  }
  return checks
}

/** One turn of the event loop (timers and signals included). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A check that needs the tool list, when there is none; a rule the revision lacks is still just that. */
function notTestable(def: CheckDef, version: string, prerequisite: string, why: string): CheckResult {
  const j = judge(def, version)
  return j.applies ? j.notTestable(prerequisite, why) : j.notInRevision()
}

/** `listFailedAt`: the check reporting why there is no tool list, whose tools the probe would need. */
async function probeInvalidArguments(wire: Wire, tools: Record<string, unknown>[], version: string, options: ToolProbeOptions, listFailedAt?: string): Promise<CheckResult> {
  const j = judge(INVALID_ARGUMENTS, version)
  if (options.calls.length === 0) return j.skip('no tool was named with --call; the kit calls real tools only when allowed')
  if (listFailedAt !== undefined) return j.notTestable(listFailedAt, 'without a tool list the kit cannot build arguments that break a tool’s inputSchema')
  for (const call of options.calls) {
    const tool = tools.find((t) => t.name === call.name)
    if (!tool || (isObject(tool.execution) && tool.execution.taskSupport === 'required')) continue
    const invalid = invalidArgumentsFor(tool, version)
    if (!invalid) continue
    const outcome = await wire.request('tools/call', { name: call.name, arguments: invalid.args }, options.requestTimeoutMs)
    return judgeInvalidArguments(call.name, invalid.why, outcome, version)
  }
  return j.skip('no tool named with --call has an inputSchema constraint the kit can violate')
}
