import type { LimitsConfig } from './config.ts'
import { BridgeError } from './errors.ts'
import type { JsonSchema } from './host-contract.ts'
import { isRecord, jsonTextLength, schemaProblem } from '@mcp-bridge/process'
import { MAX_RAW_NAME_CHARS, publicToolName } from './naming.ts'
import { drainPages, type PagedList } from './pages.ts'

/** One tools/list page as the server sent it; nothing in it is trusted yet. */
export interface ToolPage {
  tools: unknown[]
  nextCursor?: unknown
}

export type ListPage = (cursor: string | undefined) => Promise<ToolPage>

/** A server tool that passed validation, with both of its names. */
export interface BridgedTool {
  rawName: string
  publicName: string
  description: string
  inputSchema: JsonSchema
  outputSchema?: JsonSchema
  /** Called as a task (task-call.ts): the tool requires it, or allows it and the config prefers it. */
  asTask?: true
}

/** What decides whether a tool is called as a task (MCP 2025-11-25 §tools, execution.taskSupport). */
export interface TaskPolicy {
  /** The server declared `capabilities.tasks.requests.tools.call`. */
  serverSupportsTasks: boolean
  /** Tools whose taskSupport is "optional" are called as tasks too (config `preferTaskCalls`). */
  preferTaskCalls: boolean
}

const NO_TASKS: TaskPolicy = { serverSupportsTasks: false, preferTaskCalls: false }

/** The server's capabilities declare task-augmented tools/call (`tasks.requests.tools.call`, an object). */
export function declaresToolTasks(capabilities: unknown): boolean {
  const tasks = isRecord(capabilities) ? capabilities.tasks : undefined
  const requests = isRecord(tasks) ? tasks.requests : undefined
  const tools = isRecord(requests) ? requests.tools : undefined
  return isRecord(tools) && isRecord(tools.call)
}

export interface Quarantined {
  name: string
  reason: string
}

export interface ToolPlan {
  tools: BridgedTool[]
  quarantined: Quarantined[]
}


/** Follows the cursor chain to its end, refusing chains that repeat or never end (pages.ts). */
export function drainToolPages(listPage: ListPage, limits: Pick<LimitsConfig, 'maxPages' | 'maxTools'>): Promise<unknown[]> {
  return drainPages(TOOL_PAGES, listPage, limits)
}

const TOOL_PAGES: PagedList = { method: 'tools/list', key: 'tools', noun: 'tools', code: 'INVALID_TOOL_LIST' }

/**
 * Pure: validates a drained tool list and derives the generation to register. Individually
 * broken tools are quarantined with a reason; a list that breaks the protocol as a whole (a raw
 * name listed twice, two identities on one public name) is rejected so the previous generation stays.
 */
export function planTools(
  serverName: string,
  listed: unknown[],
  limits: Pick<LimitsConfig, 'maxDescriptionChars' | 'maxSchemaChars'>,
  tasks: TaskPolicy = NO_TASKS,
): ToolPlan {
  const tools: BridgedTool[] = []
  const quarantined: Quarantined[] = []
  const rawNames = new Set<string>()
  const publicNames = new Map<string, string>()
  for (const entry of listed) {
    const tool = isRecord(entry) ? entry : {}
    const rawName = tool.name
    if (typeof rawName !== 'string' || rawName.length === 0 || rawName.length > MAX_RAW_NAME_CHARS) {
      quarantined.push({ name: String(rawName).slice(0, 80), reason: `name must be a string of 1-${MAX_RAW_NAME_CHARS} characters` })
      continue
    }
    if (rawNames.has(rawName)) throw invalid(`server listed tool "${rawName}" more than once: invalid tool list`)
    rawNames.add(rawName)
    const reason = rejectReason(tool, limits, tasks)
    if (reason) {
      quarantined.push({ name: rawName, reason })
      continue
    }
    const publicName = publicToolName(serverName, rawName)
    const holder = publicNames.get(publicName)
    if (holder !== undefined) throw invalid(`tools "${holder}" and "${rawName}" map to the same public name ${publicName}`)
    publicNames.set(publicName, rawName)
    const description = boundDescription(tool.description, limits.maxDescriptionChars)
    const outputSchema = isRecord(tool.outputSchema) ? tool.outputSchema : undefined
    const asTask = callsAsTask(tool, tasks)
    // Built field by field, not spread: one object shape for every tool of a 10,000-tool list.
    const bridged: BridgedTool = { rawName, publicName, description, inputSchema: tool.inputSchema as JsonSchema }
    if (outputSchema) bridged.outputSchema = outputSchema
    if (asTask) bridged.asTask = asTask
    tools.push(bridged)
  }
  return { tools, quarantined }
}

/**
 * What re-syncs compare: everything the bridge uses of a tool but its names. Computed only when a
 * re-sync finds a registered tool of the same name (tool-set.ts), never on a first sync; a
 * definition recomputes it from what it keeps (definition.ts), so a generation holds no copy.
 */
export function toolSignature(tool: Pick<BridgedTool, 'description' | 'outputSchema' | 'asTask'> & { inputSchema?: JsonSchema }): string {
  const { description, inputSchema, outputSchema, asTask } = tool
  return `${description}\0${JSON.stringify(inputSchema)}\0${outputSchema ? JSON.stringify(outputSchema) : ''}${asTask ? '\0task' : ''}`
}

function rejectReason(tool: Record<string, unknown>, limits: Pick<LimitsConfig, 'maxSchemaChars'>, tasks: TaskPolicy): string | undefined {
  const schema = tool.inputSchema
  if (!isRecord(schema)) return 'inputSchema is missing or not an object'
  if (schema.type !== 'object') return 'inputSchema must have type "object"'
  // Counted, not stringified: the text itself is never needed here. Only an oversized schema is
  // counted to its end, for the message (the response size limit bounds that).
  if (jsonTextLength(schema, limits.maxSchemaChars) > limits.maxSchemaChars) {
    return `inputSchema is ${jsonTextLength(schema)} characters, over limits.maxSchemaChars (${limits.maxSchemaChars})`
  }
  // Registered, a schema that is not JSON Schema would leave the tool's arguments unchecked.
  const problem = schemaProblem(schema)
  if (problem) return `inputSchema is not valid JSON Schema: ${problem.slice(0, 300)}`
  // "If a server's capabilities do not include tasks.requests.tools.call, then clients MUST NOT
  // attempt to use task augmentation on that server's tools": such a tool could only fail.
  if (taskSupport(tool) === 'required' && !tasks.serverSupportsTasks) {
    return 'the tool requires task-based execution, but the server does not declare the capability tasks.requests.tools.call'
  }
  return undefined
}

/** "required" MUST be called as a task; "forbidden" or absent MUST NOT; "optional" as configured. */
function callsAsTask(tool: Record<string, unknown>, tasks: TaskPolicy): true | undefined {
  const support = taskSupport(tool)
  if (!tasks.serverSupportsTasks) return undefined
  return support === 'required' || (support === 'optional' && tasks.preferTaskCalls) ? true : undefined
}

function taskSupport(tool: Record<string, unknown>): unknown {
  return isRecord(tool.execution) ? tool.execution.taskSupport : undefined
}

function boundDescription(description: unknown, max: number): string {
  if (typeof description !== 'string') return ''
  if (description.length <= max) return description
  return `${description.slice(0, max)}… [description truncated from ${description.length} characters]`
}

function invalid(message: string): BridgeError {
  return new BridgeError(message, 'INVALID_TOOL_LIST')
}
