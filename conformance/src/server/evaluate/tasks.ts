/**
 * Pure verdicts on the tasks exchanges (probe/tasks.ts records them). Each check reports the
 * first thing wrong it finds, under the sentence that thing breaks; a case without a sentence in
 * the negotiated revision is information (check.ts).
 */
import type { CheckResult } from '../../model.ts'
import { isObject, judge, list, show, unreadable, type Judge } from '../check.ts'
import {
  TASK_CANCEL,
  TASK_CANCEL_TERMINAL,
  TASK_CHECKS,
  TASK_CREATE,
  TASK_FORBIDDEN,
  TASK_GET,
  TASK_LIST,
  TASK_LIST_CURSOR,
  TASK_RELATED_META,
  TASK_RESULT,
  TASK_STATUS,
  TASK_UNKNOWN_ID,
} from '../registry/tasks.ts'
import { validateShape, type ShapeName } from '../shapes.ts'
import { describeOutcome, type RpcOutcome, type WireEntry } from '../wire/types.ts'

export const RELATED_TASK = 'io.modelcontextprotocol/related-task'
export const TERMINAL = ['completed', 'failed', 'cancelled']
const STATUSES = ['working', 'input_required', ...TERMINAL]

/** One task the kit created, and every exchange about it, in the order they were made. */
export interface TaskTrace {
  create: RpcOutcome
  taskId?: string
  /** The _meta.progressToken the task-augmented call carried. */
  progressToken?: string
  /** tasks/get answers while the task ran (and the tasks/result was pending). */
  gets: RpcOutcome[]
  result?: RpcOutcome
  /** tasks/get sent once tasks/result was answered. */
  afterResult?: RpcOutcome
  cancel?: RpcOutcome
  /** tasks/get after tasks/cancel (the first task: the last look, after the cancel of an ended task). */
  afterCancel?: RpcOutcome
}

export interface TaskObservation {
  /** The wire the exchanges went over: only Streamable HTTP chooses between JSON and an event stream. */
  transport?: 'stdio' | 'http'
  /** Why no task was created (no tool may be run as one, or tasks.requests.tools.call is not declared). */
  noTask?: string
  tool?: string
  first?: TaskTrace
  /** The plain call of the same tool and arguments, when its taskSupport is "optional". */
  plain?: RpcOutcome
  /** A second task, cancelled at once (tasks.cancel declared). */
  second?: TaskTrace
  /** tasks/cancel for the first task once terminal. */
  cancelTerminal?: RpcOutcome
  /** Every page of tasks/list (tasks.list declared); `stop` as for the other lists. */
  list?: { pages: RpcOutcome[]; stop: 'end' | 'failed' | 'bad-page' | 'repeated-cursor' | 'page-cap' }
  listCursor?: RpcOutcome
  /** tasks/get, tasks/result and tasks/cancel for a taskId never issued. */
  unknown: { method: string; outcome: RpcOutcome }[]
  /** A task-augmented call of a tool whose taskSupport is absent or forbidden. */
  forbidden?: { tool: string; outcome: RpcOutcome }
  /** Why the checks that need a declared capability were not run. */
  listUndeclared?: string
  cancelUndeclared?: string
  forbiddenNone?: string
}

/** Every tasks check skipped for one reason (tasks not declared, or a revision without tasks). */
export function tasksNotJudged(version: string, reason: string): CheckResult[] {
  return TASK_CHECKS.map((def) => {
    const j = judge(def, version)
    return j.applies ? j.skip(reason) : j.notInRevision()
  })
}

export function judgeTasks(obs: TaskObservation, version: string): CheckResult[] {
  return [
    judgeUnknown(obs, version),
    judgeCreate(obs, version),
    judgeGet(obs, version),
    judgeStatus(obs, version),
    judgeResult(obs, version),
    judgeList(obs, version),
    judgeListCursor(obs, version),
    judgeCancel(obs, version),
    judgeCancelTerminal(obs, version),
    judgeForbidden(obs, version),
    judgeRelatedMeta(obs, version),
  ]
}

/** The Task inside an answer: the CreateTaskResult's `task`, or the result itself (tasks/get, tasks/cancel). */
export function taskOf(outcome: RpcOutcome | undefined, nested = false): Record<string, unknown> | undefined {
  if (outcome?.kind !== 'result' || !isObject(outcome.result)) return undefined
  const task = nested ? outcome.result.task : outcome.result
  return isObject(task) ? task : undefined
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/

/** What breaks the task-response MUSTs in a Task: its timestamps, as ISO 8601. */
function timestampProblems(task: Record<string, unknown>): string[] {
  return ['createdAt', 'lastUpdatedAt'].filter((key) => typeof task[key] !== 'string' || !ISO_8601.test(task[key] as string)).map((key) => `${key} ${task[key] === undefined ? 'is missing' : `is ${show(task[key], 40)}, not an ISO 8601 timestamp`}`)
}

function shapeProblems(name: ShapeName, value: unknown, version: string): string[] {
  return validateShape(name, value, version).issues.map((issue) => issue.text)
}

const noAnswer = (outcome: RpcOutcome) => outcome.kind === 'timeout' || outcome.kind === 'closed' || outcome.kind === 'malformed'

/** The verdict of a check whose prerequisite (a created task) is missing. */
export function withoutTask(j: Judge, obs: TaskObservation): CheckResult {
  if (obs.noTask !== undefined) return j.skip(obs.noTask)
  return j.notTestable('tasks/create', 'the task-augmented tools/call created no task')
}

function judgeCreate(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_CREATE, version)
  const trace = obs.first
  if (!trace) return j.skip(obs.noTask ?? 'no task was created')
  const { create } = trace
  const wire = create.wire
  const blocked = unreadable(j, `the task-augmented tools/call ${show(obs.tool)}`, create)
  if (blocked) return blocked
  if (noAnswer(create)) return j.breach(`the task-augmented tools/call got ${describeOutcome(create)}`, { wire }, 'reply')
  if (create.kind === 'error') return j.breach(`the tool allows task execution and the server declares tasks.requests.tools.call, but the task-augmented call got ${describeOutcome(create)}, not a CreateTaskResult`, { wire })
  if (!isObject(create.result) || !isObject(create.result.task)) {
    const got = isObject(create.result) && Array.isArray(create.result.content) ? 'a CallToolResult (the call ran as a plain one)' : `${show(create.result, 120)}`
    return j.breach(`the task-augmented tools/call answered with ${got}, not a CreateTaskResult`, { wire })
  }
  const task = create.result.task
  if (typeof task.taskId !== 'string') return j.breach(`task.taskId is ${show(task.taskId, 40)}, not a string`, { wire }, 'task-id')
  const shape = shapeProblems('CreateTaskResult', create.result, version)
  if (shape.length) return j.breach(`the answer breaks the ${version} CreateTaskResult schema: ${list(shape, 3)}`, { wire, details: { problems: shape } }, 'shape')
  if (task.status !== 'working') return j.breach(`the new task’s status is ${show(task.status, 40)}, not "working"`, { wire }, 'working')
  const times = timestampProblems(task)
  if (times.length) return j.breach(`the CreateTaskResult’s task: ${list(times)}`, { wire }, 'timestamps')
  // The second task (created to be cancelled) is the one id the kit can compare with.
  if (obs.second?.taskId !== undefined && obs.second.taskId === task.taskId) return j.breach(`a second task-augmented call created a task with the same id ${show(task.taskId, 60)}`, { wire: [...wire, ...obs.second.create.wire] }, 'unique')
  const extras = [`ttl ${show(task.ttl, 20)}`, ...(task.pollInterval !== undefined ? [`pollInterval ${show(task.pollInterval, 20)}`] : [])]
  return j.pass(`${show(obs.tool)} created task ${show(task.taskId, 60)} in "working" (${extras.join(', ')})`, { wire })
}

/** Every tasks/get answer about a task the kit created, with the taskId asked. */
function getsOf(obs: TaskObservation): { taskId: string; outcome: RpcOutcome }[] {
  const out: { taskId: string; outcome: RpcOutcome }[] = []
  for (const trace of [obs.first, obs.second]) {
    if (!trace?.taskId) continue
    for (const outcome of [...trace.gets, trace.afterResult, trace.afterCancel]) if (outcome) out.push({ taskId: trace.taskId, outcome })
  }
  return out
}

function judgeGet(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_GET, version)
  const gets = getsOf(obs)
  if (gets.length === 0) return withoutTask(j, obs)
  for (const { taskId, outcome } of gets) {
    const wire = outcome.wire
    const blocked = unreadable(j, `tasks/get ${show(taskId, 60)}`, outcome)
    if (blocked) return blocked
    if (noAnswer(outcome)) return j.breach(`tasks/get for a task it created got ${describeOutcome(outcome)}`, { wire }, 'reply')
    if (outcome.kind === 'error') return j.breach(`tasks/get for task ${show(taskId, 60)}, which the server created, got ${describeOutcome(outcome)}`, { wire }, 'same-id')
    const task = taskOf(outcome)!
    if (task.taskId !== taskId) return j.breach(`tasks/get for ${show(taskId, 60)} answered with task ${show(task.taskId, 60)}`, { wire }, 'same-id')
    if (!('ttl' in task)) return j.breach('the tasks/get answer has no ttl (a number, or null for unlimited)', { wire })
    const shape = shapeProblems('GetTaskResult', outcome.result, version)
    if (shape.length) return j.breach(`the answer breaks the ${version} GetTaskResult schema: ${list(shape, 3)}`, { wire, details: { problems: shape } }, 'shape')
    const times = timestampProblems(task)
    if (times.length) return j.breach(`the tasks/get answer: ${list(times)}`, { wire }, 'timestamps')
    if (task.status === 'failed' && typeof task.statusMessage !== 'string') return j.breach('the task failed and tasks/get gives no statusMessage saying why', { wire }, 'failed')
  }
  const last = taskOf(gets[gets.length - 1]!.outcome)
  return j.pass(`${gets.length} tasks/get answers, each the task asked for with its ttl and timestamps (last status ${show(last?.status, 30)})`)
}

/** Statuses of one task in wire order: answers about it and notifications/tasks/status for it. */
export function statusTrail(trace: TaskTrace): { status: unknown; from: string }[] {
  const trail: { status: unknown; from: string }[] = []
  const id = trace.taskId
  const add = (outcome: RpcOutcome | undefined, from: string, nested = false) => {
    if (!outcome) return
    for (const n of statusNotifications(outcome.wire)) if (n.taskId === id) trail.push({ status: n.status, from: 'notifications/tasks/status' })
    const task = taskOf(outcome, nested)
    if (task && task.taskId === id) trail.push({ status: task.status, from })
  }
  // A task created in another status than working is tasks/create's verdict, not a transition.
  if (taskOf(trace.create, true)?.status === 'working') add(trace.create, 'tools/call', true)
  for (const get of trace.gets) add(get, 'tasks/get')
  add(trace.result, 'tasks/result')
  add(trace.afterResult, 'tasks/get')
  add(trace.cancel, 'tasks/cancel')
  add(trace.afterCancel, 'tasks/get')
  return trail
}

function statusNotifications(wire: WireEntry[]): Record<string, unknown>[] {
  return wire.flatMap((entry) => (entry.dir === 'server→client' && isObject(entry.message) && entry.message.method === 'notifications/tasks/status' && isObject(entry.message.params) ? [entry.message.params] : []))
}

/** Whether `to` may follow `from` (§Task Status Lifecycle); the same status again is no transition. */
export function validTransition(from: unknown, to: unknown): boolean {
  if (from === to) return true
  if (from === 'working') return to === 'input_required' || TERMINAL.includes(String(to))
  if (from === 'input_required') return to === 'working' || TERMINAL.includes(String(to))
  return false
}

function judgeStatus(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_STATUS, version)
  const traces = [obs.first, obs.second].filter((t): t is TaskTrace => t?.taskId !== undefined)
  if (traces.length === 0) return withoutTask(j, obs)
  let seen = 0
  let notified: string | undefined
  for (const trace of traces) {
    const trail = statusTrail(trace).filter((step) => STATUSES.includes(String(step.status)))
    seen += trail.length
    const path = () => trail.map((step) => `${String(step.status)} (${step.from})`).join(' → ')
    // Judged on the answers to the kit's requests. A status notification may be written after an
    // answer that already told a later status (the server's own scheduling decides), so one out of
    // step is told in the pass's message, never a status of its own: a verdict must not depend on
    // which of the two was written first.
    const answers = trail.filter((step) => step.from !== 'notifications/tasks/status')
    for (let i = 1; i < answers.length; i++) {
      const [a, b] = [answers[i - 1]!, answers[i]!]
      if (validTransition(a.status, b.status)) continue
      return j.breach(`task ${show(trace.taskId, 60)} went from ${String(a.status)} to ${String(b.status)}: ${path()}`, { details: { trail } }, a.status === 'cancelled' ? 'cancelled' : undefined)
    }
    for (let i = 1; i < trail.length && notified === undefined; i++) {
      if (!validTransition(trail[i - 1]!.status, trail[i]!.status)) notified = `task ${show(trace.taskId, 60)}: a status notification out of step with the answers: ${path()}`
    }
  }
  const tasks = traces.length === 1 ? '1 task' : `${traces.length} tasks`
  if (notified) return j.pass(`${seen} statuses of ${tasks}, each answer a valid step from the one before (information: ${notified})`)
  return j.pass(`${seen} statuses of ${tasks}, each a valid step from the one before`)
}

function relatedTaskId(result: unknown): unknown {
  const meta = isObject(result) && isObject(result._meta) ? result._meta : undefined
  const related = meta && isObject(meta[RELATED_TASK]) ? meta[RELATED_TASK] : undefined
  return related?.taskId
}

/** A tools/call outcome's kind and visible content, for the comparison with the plain call. */
function callKind(outcome: RpcOutcome): string {
  if (outcome.kind === 'error') return `JSON-RPC error ${String(outcome.error.code)}`
  if (outcome.kind !== 'result') return describeOutcome(outcome)
  return isObject(outcome.result) && outcome.result.isError === true ? 'an isError result' : 'a successful result'
}

function withoutMeta(result: unknown): string {
  if (!isObject(result)) return JSON.stringify(result)
  const { _meta: _, ...rest } = result
  return JSON.stringify(rest)
}

function judgeResult(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_RESULT, version)
  const trace = obs.first
  if (!trace?.taskId || !trace.result) return withoutTask(j, obs)
  const { result } = trace
  const wire = result.wire
  const blocked = unreadable(j, `tasks/result ${show(trace.taskId, 60)}`, result)
  if (blocked) return blocked
  if (noAnswer(result)) return j.breach(`tasks/result got ${describeOutcome(result)}`, { wire }, 'reply')
  const after = taskOf(trace.afterResult)
  // A task seen ended before is tasks/status's business if it shows working again, not an early answer's.
  const endedBefore = trace.gets.some((get) => TERMINAL.includes(String(taskOf(get)?.status)))
  if (after && after.taskId === trace.taskId && !endedBefore && !TERMINAL.includes(String(after.status))) {
    return j.breach(`tasks/result was answered while the task was still ${show(after.status, 30)} (the tasks/get sent after the answer says so)`, { wire: [...wire, ...(trace.afterResult?.wire ?? [])] })
  }
  const status = after?.status
  if (result.kind === 'error') {
    if (obs.plain && obs.plain.kind === 'result') return j.breach(`tasks/result answered with ${describeOutcome(result)}, where the plain call of the same tool answered with ${callKind(obs.plain)}`, { wire }, 'same-kind')
    if (status === 'completed') return j.breach(`the task completed, yet tasks/result answered with ${describeOutcome(result)}`, { wire }, 'same-kind')
    return j.pass(`tasks/result answered with ${describeOutcome(result)} for a task that ended ${show(status, 30)}`, { wire })
  }
  const shape = shapeProblems('CallToolResult', result.result, version)
  if (shape.length) return j.breach(`tasks/result answered with what a tools/call cannot return: the ${version} CallToolResult schema is broken (${list(shape, 3)})`, { wire, details: { problems: shape } }, 'shape')
  if (relatedTaskId(result.result) !== trace.taskId) {
    return j.breach(`the tasks/result answer has no _meta["${RELATED_TASK}"].taskId ${show(trace.taskId, 60)} (found ${show(relatedTaskId(result.result), 60)})`, { wire }, 'meta')
  }
  if (obs.plain) {
    const plain = callKind(obs.plain)
    const got = callKind(result)
    if (obs.plain.kind === 'error') return j.breach(`tasks/result answered with ${got}, where the plain call of the same tool answered with ${plain}`, { wire }, 'same-kind')
    if (obs.plain.kind === 'result' && withoutMeta(obs.plain.result) !== withoutMeta(result.result)) {
      // A tool may answer differently from call to call (a clock, a counter): no oracle for "exactly".
      return j.info(`tasks/result gave ${got} as the plain call did, but not the same one; a tool’s result may differ between two calls, so this is not judged`, { wire, details: { plain: obs.plain.result } }, 'result')
    }
    return j.pass(`tasks/result waited for the end and answered exactly what the plain call answered (${got}), with the related-task _meta`, { wire })
  }
  return j.pass(`tasks/result waited for the end and answered with ${callKind(result)} and the related-task _meta`, { wire })
}

function judgeList(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_LIST, version)
  if (obs.listUndeclared !== undefined) return j.skip(obs.listUndeclared)
  const listed = obs.list
  if (!listed) return j.skip('tasks/list was not asked')
  const last = listed.pages[listed.pages.length - 1]!
  const wire = last.wire
  const blocked = unreadable(j, 'tasks/list', last)
  if (blocked) return blocked
  if (noAnswer(last)) return j.breach(`tasks/list got ${describeOutcome(last)}`, { wire }, 'reply')
  if (last.kind === 'error') return j.breach(`the server declares tasks.list, but tasks/list got ${describeOutcome(last)}`, { wire })
  for (const page of listed.pages) {
    const shape = shapeProblems('ListTasksResult', page.kind === 'result' ? page.result : undefined, version)
    if (shape.length) return j.breach(`a tasks/list page breaks the ${version} ListTasksResult schema: ${list(shape, 3)}`, { wire: page.wire, details: { problems: shape } }, 'shape')
  }
  if (listed.stop === 'repeated-cursor') return j.breach('a nextCursor came back a second time: the listing loops', { wire }, 'loop')
  if (listed.stop === 'page-cap') return j.skip(`the kit stopped after ${listed.pages.length} pages; what it saw was well-formed`, { wire })
  const ids = new Set(listed.pages.flatMap((page) => (page.kind === 'result' && isObject(page.result) && Array.isArray(page.result.tasks) ? page.result.tasks : [])).map((task) => (isObject(task) ? task.taskId : undefined)))
  // Only tasks tasks/get still finds must be listed: a cancelled task may be gone (§Task Cancellation).
  // The listing is taken once the first task has ended, before the second exists.
  const first = obs.first
  const found = first?.taskId !== undefined && [...first.gets, first.afterResult].some((get) => get?.kind === 'result') ? [first.taskId] : []
  const missing = found.filter((id) => !ids.has(id))
  if (missing.length) return j.breach(`tasks/get finds ${list(missing.map((id) => show(id, 60)))}, but no page of tasks/list lists it`, { wire, details: { listed: [...ids].slice(0, 20) } })
  return j.pass(`${listed.pages.length === 1 ? '1 page' : `${listed.pages.length} pages`} listing ${ids.size} tasks, the created one among them`, { wire })
}

/** An answer that must be JSON-RPC error -32602. */
function invalidParams(j: Judge, what: string, outcome: RpcOutcome, ruleCase?: string): CheckResult | undefined {
  const blocked = unreadable(j, what, outcome)
  if (blocked) return blocked
  if (noAnswer(outcome)) return j.breach(`${what} got ${describeOutcome(outcome)}`, { wire: outcome.wire }, 'reply')
  if (outcome.kind === 'error' && outcome.error.code === -32602) return undefined
  return j.breach(`${what} got ${outcome.kind === 'result' ? `a result (${show(outcome.result, 100)})` : describeOutcome(outcome)}, not JSON-RPC error -32602 (Invalid params)`, { wire: outcome.wire }, ruleCase)
}

function judgeListCursor(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_LIST_CURSOR, version)
  if (obs.listUndeclared !== undefined) return j.skip(obs.listUndeclared)
  if (!obs.listCursor) return j.skip('tasks/list was not asked')
  return invalidParams(j, 'tasks/list with a cursor never issued', obs.listCursor) ?? j.pass('tasks/list refused a cursor it never issued with -32602', { wire: obs.listCursor.wire })
}

function judgeCancel(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_CANCEL, version)
  if (obs.cancelUndeclared !== undefined) return j.skip(obs.cancelUndeclared)
  const trace = obs.second
  if (!trace?.cancel) return obs.first?.taskId === undefined ? withoutTask(j, obs) : j.skip('no second task was created to cancel')
  const { cancel } = trace
  const wire = cancel.wire
  const blocked = unreadable(j, 'tasks/cancel', cancel)
  if (blocked) return blocked
  if (noAnswer(cancel)) return j.breach(`tasks/cancel got ${describeOutcome(cancel)}`, { wire }, 'reply')
  if (cancel.kind === 'error') {
    const ended = taskOf(trace.afterCancel)?.status
    if (cancel.error.code === -32602 && TERMINAL.includes(String(ended)) && ended !== 'cancelled') {
      return j.info(`the task had ended (${show(ended, 30)}) before tasks/cancel arrived, which refused it with -32602: there was nothing running to cancel`, { wire })
    }
    return j.breach(`tasks/cancel for a task the server had just created got ${describeOutcome(cancel)}`, { wire })
  }
  const shape = shapeProblems('CancelTaskResult', cancel.result, version)
  if (shape.length) return j.breach(`the answer breaks the ${version} CancelTaskResult schema: ${list(shape, 3)}`, { wire, details: { problems: shape } }, 'shape')
  const task = taskOf(cancel)!
  if (task.status !== 'cancelled') return j.breach(`tasks/cancel answered with the task in ${show(task.status, 30)}, not "cancelled"`, { wire })
  return j.pass('tasks/cancel answered with the task in "cancelled"', { wire })
}

function judgeCancelTerminal(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_CANCEL_TERMINAL, version)
  if (obs.cancelUndeclared !== undefined) return j.skip(obs.cancelUndeclared)
  if (!obs.cancelTerminal) return obs.first?.taskId === undefined ? withoutTask(j, obs) : j.skip('the created task was not seen terminal, so there was no ended task to cancel')
  return invalidParams(j, 'tasks/cancel for a task that had ended', obs.cancelTerminal) ?? j.pass('tasks/cancel for an ended task was refused with -32602', { wire: obs.cancelTerminal.wire })
}

function judgeUnknown(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_UNKNOWN_ID, version)
  for (const { method, outcome } of obs.unknown) {
    const breach = invalidParams(j, `${method} for a taskId never issued`, outcome)
    if (breach) return breach
  }
  return j.pass(`${list(obs.unknown.map((u) => u.method))} for a taskId never issued: each refused with -32602`)
}

function judgeForbidden(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_FORBIDDEN, version)
  if (!obs.forbidden) return j.skip(obs.forbiddenNone ?? 'no tool without task support was named with --call')
  const { tool, outcome } = obs.forbidden
  const wire = outcome.wire
  if (outcome.kind === 'error' && outcome.error.code === -32601) return j.pass(`${show(tool)} (no task support) refused a task-augmented call with -32601`, { wire })
  return j.breach(`${show(tool)} does not support tasks, yet a task-augmented call of it got ${outcome.kind === 'result' ? (isObject(outcome.result) && isObject(outcome.result.task) ? 'a CreateTaskResult' : 'a result') : describeOutcome(outcome)}`, { wire })
}

function judgeRelatedMeta(obs: TaskObservation, version: string): CheckResult {
  const j = judge(TASK_RELATED_META, version)
  const answers: { what: string; outcome: RpcOutcome }[] = []
  for (const trace of [obs.first, obs.second]) {
    if (!trace) continue
    for (const get of [...trace.gets, trace.afterResult, trace.afterCancel]) if (get) answers.push({ what: 'tasks/get', outcome: get })
    if (trace.cancel) answers.push({ what: 'tasks/cancel', outcome: trace.cancel })
  }
  for (const page of obs.list?.pages ?? []) answers.push({ what: 'tasks/list', outcome: page })
  if (answers.length === 0) return withoutTask(j, obs)
  for (const { what, outcome } of answers) {
    for (const n of statusNotifications(outcome.wire)) {
      if (relatedTaskId(n) !== undefined) return j.breach(`a notifications/tasks/status carries _meta["${RELATED_TASK}"]`, { wire: outcome.wire }, 'notification')
    }
    if (outcome.kind === 'result' && relatedTaskId(outcome.result) !== undefined) return j.breach(`a ${what} result carries _meta["${RELATED_TASK}"]`, { wire: outcome.wire })
  }
  return j.pass(`${answers.length} tasks/get, tasks/list and tasks/cancel answers, none repeating the task in _meta`)
}

