import { setTimeout as sleep } from 'node:timers/promises'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'

/** Task bugs real clients have shipped; each one switches off one thing the naive client does right. */
export interface TaskFaults {
  /** Call every tool plainly, a tool whose taskSupport is "required" too (past the SDK's own guard). */
  plainTaskCalls?: boolean
  /** Call every tool as a task once the server declares tasks, whatever its taskSupport says. */
  taskEverything?: boolean
  /** Never send tasks/cancel: an aborted or timed-out task is left running on the server. */
  noTaskCancel?: boolean
  /** Ignore the server's pollInterval: poll tasks/get as fast as answers come. */
  busyPolling?: boolean
  /** Bound a task by a fixed 8 s of its own instead of maxTotalTimeoutMs (a default in the configured one's place). */
  noTaskCeiling?: boolean
  /** Keep polling a task that is input_required instead of calling tasks/result. */
  pollThroughInput?: boolean
  /** Take a failed tasks/get (a task the server lost) for a passing hiccup and poll on. */
  retryLostTask?: boolean
  /** Call tools whose taskSupport is "optional" as tasks whatever preferTaskCalls says. */
  optionalAsTask?: boolean
  /** Call tools whose taskSupport is "optional" plainly whatever preferTaskCalls says. */
  ignorePreferTaskCalls?: boolean
}

export interface TaskCallOptions {
  signal?: AbortSignal
  /** Per request. */
  timeout?: number
  maxTotalTimeoutMs: number
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled'])
const NAIVE_CEILING_MS = 8_000

/**
 * A task-augmented tools/call on the SDK's experimental tasks API, as a plain SDK user would write
 * it: create, poll tasks/get at the server's pollInterval, fetch tasks/result; an abort or the
 * total ceiling sends tasks/cancel for a task still running.
 */
export async function callAsTask(client: Client, name: string, args: Record<string, unknown>, options: TaskCallOptions, faults: TaskFaults): Promise<CallToolResult> {
  const scope = new AbortController()
  const follow = () => scope.abort(options.signal?.reason)
  options.signal?.addEventListener('abort', follow, { once: true })
  const ceiling = setTimeout(() => scope.abort(new Error(`the task exceeded its total timeout`)), faults.noTaskCeiling ? NAIVE_CEILING_MS : options.maxTotalTimeoutMs)
  const tasks = client.experimental.tasks
  let taskId: string | undefined
  let status = 'working'
  try {
    const created = await client.request({ method: 'tools/call', params: { name, arguments: args } }, CreateTaskResultSchema, {
      signal: scope.signal,
      timeout: options.timeout,
      task: { ttl: options.maxTotalTimeoutMs },
    })
    taskId = created.task.taskId
    let task: { status: string; pollInterval?: number } = created.task
    // input_required: the result stream is where the task gets what it needs (§Input Required Status).
    while (!TERMINAL.has(task.status) && (task.status !== 'input_required' || faults.pollThroughInput)) {
      await sleep(faults.busyPolling ? 0 : (task.pollInterval ?? 1_000), undefined, { signal: scope.signal })
      const id = taskId
      const poll = () => tasks.getTask(id, { signal: scope.signal, timeout: options.timeout })
      task = faults.retryLostTask ? await poll().catch(() => task) : await poll()
      status = task.status
    }
    if (task.status === 'cancelled') throw new Error(`task ${taskId} was cancelled by the server`)
    return (await tasks.getTaskResult(taskId, CallToolResultSchema, { signal: scope.signal, timeout: options.timeout })) as CallToolResult
  } catch (error) {
    if (taskId !== undefined && !TERMINAL.has(status) && !faults.noTaskCancel) await tasks.cancelTask(taskId, { timeout: 2_000 }).catch(() => {})
    throw scope.signal.aborted ? new Error(`task ${taskId ?? '(not created)'} ended: ${String(scope.signal.reason)}`, { cause: error }) : error
  } finally {
    clearTimeout(ceiling)
    options.signal?.removeEventListener('abort', follow)
  }
}
