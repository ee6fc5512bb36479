import { RELATED_TASK_META_KEY, type ProgressToken, type ServerNotification } from '@modelcontextprotocol/sdk/types.js'
import { prng, randomHex } from './prng.ts'
import type { Behaviour, TaskSpec, ToolSpec } from './schema.ts'
import type { Timers } from './timers.ts'

/**
 * Task-augmented tools/call, scripted (MCP 2025-11-25 basic/utilities/tasks): a tool's `task`
 * options say how its tasks run, so a client's polling, cancelling and giving up are observable
 * and every run of a scenario puts the same messages on the wire. The engine routes tools/call
 * with `params.task` and the four tasks/* requests here.
 */

/** What the creating request brings: its progress token, and the session to notify on its own (not on the answered request's stream). */
export interface TaskOrigin {
  progressToken?: ProgressToken
  notify(notification: ServerNotification): Promise<void>
}
type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

/** What the fixture declares once any tool has `task` options (§Capabilities, server table). */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } }

/** A tool's underlying outcome, as a plain call of it would have answered. */
export type Outcome = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } }

export interface TaskBoardOptions {
  seed: number
  timers: Timers
  /** The tool's scripted result or error, rendered when its task ends. */
  outcome(tool: ToolSpec, name: string, args: unknown): Outcome
  /** A JSON-RPC error with exactly this code and message. */
  error(code: number, message: string, data?: unknown): Error
}

interface TaskState {
  taskId: string
  status: Status
  statusMessage?: string
  createdAt: string
  lastUpdatedAt: string
  ttl: number | null
  pollInterval?: number
}

interface Task {
  state: TaskState
  spec: TaskSpec
  /** tasks/get answers still to be `working` before the outcome may show. */
  pollsLeft: number
  workDone: boolean
  /** `input`: a tasks/result came while the task was input_required (the requestor's attention, as the spec asks for it). */
  inputGiven: boolean
  outcome?: Outcome
  finish: () => Outcome
  /** tasks/result requests blocked until the task is terminal. */
  waiters: Set<() => void>
  progress?: (progress: number) => void
  workingAnswers: number
  /** tasks/get has shown the task ended (the `reopen` fault shows it working again after that). */
  terminalShown?: boolean
}

const TERMINAL = new Set<Status>(['completed', 'failed', 'cancelled'])

/**
 * A tool's `task.fault`: one MUST of basic/utilities/tasks the fixture then breaks, so a checker
 * can be shown to catch it. A fault on the task a request is about applies to that request; the
 * unknown-id one, about no task, applies once a task of the faulty tool was created.
 */
type Fault = NonNullable<TaskSpec['fault']>
export const TASK_FAULTS: Record<Fault, string> = {
  'start-completed': 'the CreateTaskResult says "completed" (Tasks MUST begin in the working status)',
  'early-result': 'tasks/result answers at once, while the task is working (MUST block until terminal)',
  'cancel-terminal': 'tasks/cancel of an ended task answers with the task (MUST reject with -32602)',
  'unknown-id-code': 'a taskId never issued gets -32603 (MUST be -32602)',
  'list-omits': 'tasks/list lists no task (what tasks/get finds MUST be retrievable via tasks/list)',
  reopen: 'an ended task answers "working" to every tasks/get after the first that showed it ended (terminal MUST NOT transition)',
  'no-ttl': 'tasks/get answers without ttl (MUST include the actual ttl)',
  'no-related-meta': 'tasks/result has no io.modelcontextprotocol/related-task _meta (MUST include it)',
  'cancel-keeps-working': 'tasks/cancel answers with the task still working (MUST transition to cancelled first)',
  'reused-id': 'every task of the tool gets the id of its first task (Task IDs MUST be unique)',
  'progress-token': 'progress after the CreateTaskResult carries the taskId as its token (MUST use the progressToken of the task-augmented request)',
}

/** Any tool (listed at start or added by the list_changed timeline) with task options. */
export function declaresTasks(behaviour: Behaviour): boolean {
  const steps = behaviour.listChanged?.steps ?? []
  return [...behaviour.tools, ...steps.flatMap((step) => [...(step.add ?? []), ...(step.update ?? [])])].some((tool) => tool.task !== undefined)
}

/**
 * Tool-level negotiation (§Tool-Level Negotiation, for a server that declares
 * tasks.requests.tools.call): a required tool called plainly MUST get -32601, and a tool whose
 * taskSupport is absent or forbidden called as a task SHOULD. Returns that error's message, or
 * undefined when the call may go on.
 */
export function taskNegotiationError(tool: ToolSpec, name: string, asTask: boolean): string | undefined {
  const support = tool.execution?.taskSupport ?? 'forbidden'
  if (support === 'required' && !asTask) return `Tool ${name} requires task augmentation (execution.taskSupport "required")`
  if (support === 'forbidden' && asTask) return `Tool ${name} does not support task augmentation (execution.taskSupport "forbidden")`
  return undefined
}

/** Every task of one fixture (shared by its sessions: without authorization there is no context to bind a task to). */
export class TaskBoard {
  private readonly tasks = new Map<string, Task>()
  /** Task ids handed out and then forgotten (`end: lost`): they answer like ids never issued. */
  private readonly lost = new Set<string>()
  private created = 0
  /** The first task id of each tool, which the reused-id fault hands out again. */
  private readonly firstIds = new Map<ToolSpec, string>()
  /** Faults of the tasks created so far (the unknown-id one is about no task of its own). */
  private readonly faults = new Set<Fault>()

  constructor(private readonly options: TaskBoardOptions) {}

  /** tools/call with `task`: the CreateTaskResult at once (§Result Retrieval: "as soon as possible"). */
  create(tool: ToolSpec, name: string, args: unknown, requested: { ttl?: number } | undefined, origin: TaskOrigin): Record<string, unknown> {
    const spec = tool.task ?? { workMs: 0, polls: 0, end: 'done', progress: false, input: false }
    const now = new Date().toISOString()
    // Deterministic ids (transcripts compare runs), unguessable enough for a local fixture.
    const index = ++this.created
    const reused = spec.fault === 'reused-id' ? this.firstIds.get(tool) : undefined
    const taskId = reused ?? `task-${randomHex(prng(this.options.seed, 0x7a5c0000 + index), 16)}`
    if (!this.firstIds.has(tool)) this.firstIds.set(tool, taskId)
    if (spec.fault) this.faults.add(spec.fault)
    const state: TaskState = {
      taskId,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl: spec.ttlMs !== undefined ? spec.ttlMs : (requested?.ttl ?? null),
      ...(spec.pollIntervalMs !== undefined && { pollInterval: spec.pollIntervalMs }),
    }
    const token = spec.fault === 'progress-token' && origin.progressToken !== undefined ? taskId : origin.progressToken
    const task: Task = {
      state,
      spec,
      pollsLeft: spec.polls,
      workDone: false,
      inputGiven: false,
      finish: () => this.options.outcome(tool, name, args),
      waiters: new Set(),
      workingAnswers: 0,
      // The token "remains valid throughout the task lifetime" (§Task Progress Notifications); the
      // creating request is answered, so these go out on their own (over HTTP, the GET stream: the
      // answered request's stream is closed).
      progress:
        spec.progress && token !== undefined
          ? (progress) => void origin.notify({ method: 'notifications/progress', params: { progressToken: token, progress } }).catch(() => {})
          : undefined,
    }
    const answer = { task: { ...state, ...(spec.fault === 'start-completed' && { status: 'completed' as Status }) } }
    if (spec.end === 'lost') this.lost.add(taskId)
    else this.tasks.set(taskId, task)
    if (spec.end === 'done') {
      this.options.timers.schedule(spec.workMs, () => {
        task.workDone = true
        this.settle(task)
      })
    }
    return answer
  }

  /** tasks/get: `working` for the scripted polls, then whatever the task has become. */
  get(taskId: string): TaskState {
    const task = this.find(taskId)
    const answer: Partial<TaskState> & { taskId: string } = { ...task.state }
    if (task.spec.fault === 'no-ttl') delete answer.ttl
    if (task.spec.fault === 'reopen' && task.terminalShown) answer.status = 'working'
    if (TERMINAL.has(task.state.status)) task.terminalShown = true
    if (task.state.status === 'working') {
      task.workingAnswers++
      task.progress?.(task.workingAnswers)
      if (task.pollsLeft > 0) task.pollsLeft--
      // The poll just answered counts: the task may end now, the next poll sees it.
      this.settle(task)
    }
    return answer as TaskState
  }

  /** tasks/result: blocks until the task is terminal (§Result Retrieval), then the underlying outcome. */
  async result(taskId: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    const task = this.find(taskId)
    // §Input Required Status: the requestor "SHOULD preemptively call tasks/result"; here that is
    // the input the task waited for (no elicitation is sent: the fixture asks nothing of a client's
    // capabilities), so it goes back to working and ends.
    if (task.state.status === 'input_required') {
      task.inputGiven = true
      this.transition(task, 'working')
      this.settle(task)
    }
    // The outcome the task would end with, answered before it ends.
    if (task.spec.fault === 'early-result' && !TERMINAL.has(task.state.status)) return this.answerWith(taskId, task.finish())
    while (!TERMINAL.has(task.state.status)) {
      // A cancelled or closed request is never answered; its waiter goes with it.
      await new Promise<void>((resolve) => {
        const done = () => {
          task.waiters.delete(done)
          signal.removeEventListener('abort', done)
          resolve()
        }
        task.waiters.add(done)
        signal.addEventListener('abort', done, { once: true })
      })
      if (signal.aborted) return new Promise<never>(() => {})
    }
    const outcome = task.outcome
    if (!outcome) throw this.options.error(-32603, `Task ${taskId} was cancelled: it has no result`)
    return this.answerWith(taskId, outcome, task.spec.fault === 'no-related-meta')
  }

  /** "MUST include this metadata in its response" (§Related Task Metadata); an error has no _meta. */
  private answerWith(taskId: string, outcome: Outcome, withoutMeta = false): Record<string, unknown> {
    if ('error' in outcome) throw this.options.error(outcome.error.code, outcome.error.message, outcome.error.data)
    if (withoutMeta) return outcome.result
    const meta = (outcome.result._meta ?? {}) as Record<string, unknown>
    return { ...outcome.result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId } } }
  }

  /** tasks/cancel: terminal tasks are refused with -32602; others become `cancelled` before the answer (§Task Cancellation). */
  cancel(taskId: string): TaskState {
    const task = this.find(taskId)
    const { status } = task.state
    if (task.spec.fault === 'cancel-keeps-working' && !TERMINAL.has(status)) return { ...task.state }
    if (task.spec.fault === 'cancel-terminal' && TERMINAL.has(status)) return { ...task.state }
    if (TERMINAL.has(status)) throw this.options.error(-32602, `Cannot cancel task: already in terminal status '${status}'`)
    this.transition(task, 'cancelled', 'The task was cancelled by request.')
    return { ...task.state }
  }

  /** tasks/list: one page of every task a tasks/get would find. */
  list(cursor: string | undefined): { tasks: TaskState[] } {
    if (cursor !== undefined) throw this.options.error(-32602, 'Invalid cursor')
    return { tasks: [...this.tasks.values()].filter((task) => task.spec.fault !== 'list-omits').map((task) => ({ ...task.state })) }
  }

  private find(taskId: string): Task {
    const task = this.tasks.get(taskId)
    // The example message of §Error Handling; a lost task is indistinguishable from one never issued.
    if (!task && this.faults.has('unknown-id-code')) throw this.options.error(-32603, 'Failed to retrieve task: Task not found')
    if (!task || this.lost.has(taskId)) throw this.options.error(-32602, 'Failed to retrieve task: Task not found')
    return task
  }

  /** Ends a working task whose time has run and whose scripted polls are answered. */
  private settle(task: Task): void {
    if (task.state.status !== 'working' || !task.workDone || task.pollsLeft > 0) return
    if (task.spec.input && !task.inputGiven) return this.transition(task, 'input_required', 'The task needs the requestor: call tasks/result.')
    const outcome = task.finish()
    task.outcome = outcome
    // §Task Execution Errors: a JSON-RPC error, or a tool result with isError, is a failed task.
    if ('error' in outcome) this.transition(task, 'failed', `Tool execution failed: ${outcome.error.message}`)
    else if (outcome.result.isError === true) this.transition(task, 'failed', 'Tool execution failed: the tool result has isError set')
    else this.transition(task, 'completed')
  }

  private transition(task: Task, status: Status, statusMessage?: string): void {
    task.state = { ...task.state, status, lastUpdatedAt: new Date().toISOString(), ...(statusMessage !== undefined && { statusMessage }) }
    for (const wake of [...task.waiters]) wake()
  }
}
