/**
 * The tasks area (2025-11-25 basic/utilities/tasks), for a server that declares tasks (and one task-
 * augmented call, to a server that does not, which must run it as a plain one). Requests
 * about task ids never issued are always safe; a task runs its tool, so tasks are created only
 * for a tool the user named with --call. Every wait is bounded by the request timeout.
 */
import { declaresToolTasks } from '@mcp-bridge/plugin/rules'
import type { CheckResult } from '../../model.ts'
import { isObject } from '../check.ts'
import type { Session } from '../evaluate/lifecycle.ts'
import { namedItems } from '../evaluate/lists.ts'
import { judgeUndeclaredAugmentation, type UndeclaredAugmentation } from '../evaluate/task-undeclared.ts'
import { judgeTaskPolling } from '../evaluate/task-polling.ts'
import { judgeTaskProgress } from '../evaluate/task-progress.ts'
import { judgeTasks, taskOf, tasksNotJudged, TERMINAL, type TaskObservation, type TaskTrace } from '../evaluate/tasks.ts'
import { TASK_UNDECLARED } from '../registry/tasks.ts'
import { taskProgressToken } from '../progress-tokens.ts'
import { atLeast } from '../spec.ts'
import { UNKNOWN_CURSOR } from '../unknown-inputs.ts'
import type { RpcOutcome, Wire } from '../wire/types.ts'
import { drainList, PAGE_CAP } from './lists.ts'
import type { ToolCall } from './tools.ts'

export interface TaskProbeOptions {
  requestTimeoutMs: number
  calls: ToolCall[]
}

/** A taskId no server issues. */
export const UNKNOWN_TASK_ID = 'mcp-conformance-no-such-task'
/** The ttl the kit asks for: long enough to outlive the run's own waits. */
const TTL_MS = 60_000
/** Between polls when the server suggests no pollInterval; the server's own is used otherwise, within the deadline. */
const DEFAULT_POLL_MS = 100

export async function probeTasks(wire: Wire, session: Session, options: TaskProbeOptions): Promise<CheckResult[]> {
  const v = session.version
  if (!atLeast(v, '2025-11-25')) return tasksNotJudged(v, 'tasks arrived in 2025-11-25')
  const tasks = session.capabilities.tasks
  if (!isObject(tasks)) {
    const skipped = tasksNotJudged(v, 'the server does not declare the tasks capability').filter((c) => c.id !== TASK_UNDECLARED.id)
    return [...skipped, judgeUndeclaredAugmentation(await augmentUndeclared(wire, options), v)]
  }
  const timeout = options.requestTimeoutMs
  const obs: TaskObservation = { unknown: [], transport: wire.transport }
  const cancels = isObject(tasks.cancel)
  const lists = isObject(tasks.list)
  if (!cancels) obs.cancelUndeclared = 'the server does not declare tasks.cancel'
  if (!lists) obs.listUndeclared = 'the server does not declare tasks.list'


  const toolCalls = declaresToolTasks(session.capabilities)
  // The tools' taskSupport decides how each may be called; the tools checks judged the listing itself.
  const tools = toolCalls && options.calls.length > 0 ? namedItems(await drainList(wire, 'tools', timeout)) : []
  const supportOf = (call: ToolCall) => {
    const tool = tools.find((t) => t.name === call.name)
    if (!tool) return undefined
    return isObject(tool.execution) && typeof tool.execution.taskSupport === 'string' ? tool.execution.taskSupport : 'forbidden'
  }
  const taskCall = options.calls.find((call) => supportOf(call) === 'optional' || supportOf(call) === 'required')
  const plainCall = options.calls.find((call) => supportOf(call) === 'forbidden')
  if (!toolCalls) {
    obs.noTask = 'the server does not declare tasks.requests.tools.call, so no tool may be called as a task'
    obs.forbiddenNone = obs.noTask
  } else if (!taskCall) obs.noTask = 'no tool named with --call has execution.taskSupport "optional" or "required" (a task runs its tool, so the kit makes one only for a tool it may call)'
  if (toolCalls && plainCall) {
    obs.forbidden = { tool: plainCall.name, outcome: await wire.request('tools/call', { name: plainCall.name, arguments: plainCall.arguments, task: { ttl: TTL_MS } }, timeout) }
  }
  if (toolCalls && taskCall) {
    obs.tool = taskCall.name
    if (supportOf(taskCall) === 'optional') obs.plain = await wire.request('tools/call', { name: taskCall.name, arguments: taskCall.arguments }, timeout)
    const first = await runTask(wire, taskCall, timeout, taskProgressToken(1))
    obs.first = first
    const ended = [...first.gets, first.afterResult].map((outcome) => taskOf(outcome)?.status).some((status) => TERMINAL.includes(String(status)))
    if (first.taskId !== undefined && cancels && ended) obs.cancelTerminal = await wire.request('tasks/cancel', { taskId: first.taskId }, timeout)
    // Once more at the end: an ended task stays as it ended, a refused cancel included.
    if (first.taskId !== undefined && ended) first.afterCancel = await wire.request('tasks/get', { taskId: first.taskId }, timeout)
    if (first.taskId !== undefined && lists) obs.list = await drainTasks(wire, timeout)
    if (first.taskId !== undefined && cancels) obs.second = await cancelTask(wire, taskCall, timeout, taskProgressToken(2))
  }
  // After the tasks it made, so the lookups below cannot be taken for theirs.
  for (const method of ['tasks/get', 'tasks/result', ...(cancels ? ['tasks/cancel'] : [])]) {
    obs.unknown.push({ method, outcome: await wire.request(method, { taskId: UNKNOWN_TASK_ID }, timeout) })
  }
  if (lists) obs.listCursor = await wire.request('tasks/list', { cursor: UNKNOWN_CURSOR }, timeout)
  const undeclared: UndeclaredAugmentation = toolCalls ? { none: 'the server declares tasks.requests.tools.call' } : await augmentUndeclared(wire, options)
  return [...judgeTasks(obs, v), judgeTaskProgress(obs, v), judgeTaskPolling(obs, v), judgeUndeclaredAugmentation(undeclared, v)]
}

/** A task-augmented call of the first tool named with --call, to a server that does not declare such calls. */
async function augmentUndeclared(wire: Wire, options: TaskProbeOptions): Promise<UndeclaredAugmentation> {
  const call = options.calls[0]
  if (!call) return { none: 'no tool was named with --call (a call runs its tool, so the kit makes one only for a tool it may call)' }
  return { tool: call.name, outcome: await wire.request('tools/call', { name: call.name, arguments: call.arguments, task: { ttl: TTL_MS } }, options.requestTimeoutMs) }
}

function createParams(call: ToolCall, token: string): Record<string, unknown> {
  return { name: call.name, arguments: call.arguments, task: { ttl: TTL_MS }, _meta: { progressToken: token } }
}

function createdId(outcome: RpcOutcome): string | undefined {
  const task = taskOf(outcome, true)
  return task && typeof task.taskId === 'string' ? task.taskId : undefined
}

/**
 * Creates a task, then waits on tasks/result while polling tasks/get, as a requestor that is
 * "not actively waiting" only on the result would (§Getting Tasks): a server may end a task only
 * once it is polled. The whole wait ends with the request timeout.
 */
async function runTask(wire: Wire, call: ToolCall, timeoutMs: number, token: string): Promise<TaskTrace> {
  const trace: TaskTrace = { create: await wire.request('tools/call', createParams(call, token), timeoutMs), gets: [], progressToken: token }
  const taskId = createdId(trace.create)
  if (taskId === undefined) return trace
  trace.taskId = taskId
  const deadline = performance.now() + timeoutMs
  let answered = false
  const result = wire.request('tasks/result', { taskId }, timeoutMs).then((outcome) => {
    answered = true
    return outcome
  })
  let interval = pollInterval(taskOf(trace.create, true))
  while (!answered && performance.now() < deadline) {
    const get = await wire.request('tasks/get', { taskId }, Math.max(1, deadline - performance.now()))
    trace.gets.push(get)
    const task = taskOf(get)
    if (!task || TERMINAL.includes(String(task.status))) break
    interval = pollInterval(task, interval)
    await Promise.race([result, sleep(Math.min(interval, Math.max(0, deadline - performance.now())))])
  }
  trace.result = await result
  trace.afterResult = await wire.request('tasks/get', { taskId }, timeoutMs)
  return trace
}

/** A second task, cancelled as soon as it exists; then looked at once more. */
async function cancelTask(wire: Wire, call: ToolCall, timeoutMs: number, token: string): Promise<TaskTrace> {
  const trace: TaskTrace = { create: await wire.request('tools/call', createParams(call, token), timeoutMs), gets: [], progressToken: token }
  const taskId = createdId(trace.create)
  if (taskId === undefined) return trace
  trace.taskId = taskId
  trace.cancel = await wire.request('tasks/cancel', { taskId }, timeoutMs)
  trace.afterCancel = await wire.request('tasks/get', { taskId }, timeoutMs)
  return trace
}

/** A pollInterval of 0 would flood the server until the deadline: polls are at least this far apart. */
const MIN_POLL_MS = 10

/** The server's suggested pollInterval when it is a usable number, else what was used before. */
function pollInterval(task: Record<string, unknown> | undefined, previous = DEFAULT_POLL_MS): number {
  const value = task?.pollInterval
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.max(MIN_POLL_MS, value) : previous
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

async function drainTasks(wire: Wire, timeoutMs: number): Promise<NonNullable<TaskObservation['list']>> {
  const pages: RpcOutcome[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (;;) {
    const outcome = await wire.request('tasks/list', cursor === undefined ? {} : { cursor }, timeoutMs)
    pages.push(outcome)
    if (outcome.kind !== 'result') return { pages, stop: 'failed' }
    const page = outcome.result
    if (!isObject(page) || !Array.isArray(page.tasks)) return { pages, stop: 'bad-page' }
    const next = page.nextCursor
    if (next === undefined || next === null) return { pages, stop: 'end' }
    if (typeof next !== 'string') return { pages, stop: 'bad-page' }
    if (seen.has(next)) return { pages, stop: 'repeated-cursor' }
    if (pages.length >= PAGE_CAP) return { pages, stop: 'page-cap' }
    seen.add(next)
    cursor = next
  }
}
