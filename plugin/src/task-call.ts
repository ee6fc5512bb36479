import { setTimeout as sleep } from 'node:timers/promises'
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, type Client } from '@modelcontextprotocol/client'
import { CreateTaskResultSchema, GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { ANY_OBJECT, onAbort, startDeadline, untilAborted, withAbortScope } from '@mcp-bridge/process'
import { BridgeError, errorMessage } from './errors.ts'
import { isSdkTimeout } from './request-failure.ts'

/**
 * A tools/call as an MCP 2025-11-25 task (basic/utilities/tasks): the server answers with a task,
 * the bridge polls `tasks/get` at the server's `pollInterval` until the task is terminal (or needs
 * input), then fetches the outcome with `tasks/result`, which for a terminal task is "the final
 * result of the underlying request, whether that is a successful result or a JSON-RPC error" —
 * so a completed or failed task ends exactly like a plain call would.
 *
 * Everything is bounded: each request by `toolCallTimeoutMs`, the whole task by
 * `maxTotalTimeoutMs` (a task that never finishes ends there), and a server's poll interval is
 * clamped so that neither a zero nor a huge value changes that. The caller's abort and the ceiling
 * both send `tasks/cancel` (best effort, bounded) before the call fails.
 */
export interface TaskCallOptions {
  signal: AbortSignal
  toolCallTimeoutMs: number
  maxTotalTimeoutMs: number
  /** Bounds for the server's pollInterval (ms). */
  minPollMs?: number
  maxPollMs?: number
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled'])
const DEFAULT_POLL_MS = 1_000
const CANCEL_WAIT_MS = 2_000

export async function callToolAsTask(client: Client, rawName: string, args: Record<string, unknown>, options: TaskCallOptions): Promise<unknown> {
  const { toolCallTimeoutMs, maxTotalTimeoutMs } = options
  const scope = new AbortController()
  const releaseCaller = onAbort(options.signal, () => scope.abort(options.signal.reason))
  const ceiling = setTimeout(() => scope.abort(CEILING), maxTotalTimeoutMs)
  ceiling.unref()
  let taskId: string | undefined
  let status = 'working'
  try {
    // Neither the caller's signal nor the SDK's timeout may end the request: both send
    // notifications/cancelled, and "the tasks/cancel request MUST be used instead" for a
    // task-augmented one. So it is bounded (toolCallTimeoutMs, the ceiling, the caller) by waiting
    // less, and a task created after the bridge gave up is sent tasks/cancel once its id comes.
    // The task should outlive the bridge's interest in it, and no longer. The SDK's timeout, at the
    // ceiling, only frees a request that a broken server never answers.
    const creating = client.request({ method: 'tools/call', params: { name: rawName, arguments: args, task: { ttl: maxTotalTimeoutMs } } }, CreateTaskResultSchema, { timeout: maxTotalTimeoutMs })
    const gaveUp = startDeadline(toolCallTimeoutMs, [scope.signal])
    const created = await untilAborted(creating, gaveUp.signal, () => scope.signal.reason ?? new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: toolCallTimeoutMs }))
      .catch((error: unknown) => {
        creating.then((late) => cancelTask(client, checkedTaskId(late.task.taskId, rawName))).catch(() => undefined)
        throw error
      })
      .finally(() => gaveUp.clear())
    taskId = checkedTaskId(created.task.taskId, rawName)
    let task: { status: string; pollInterval?: number } = created.task
    status = task.status
    while (!TERMINAL.has(task.status) && task.status !== 'input_required') {
      await sleep(pollDelay(task.pollInterval, options), undefined, { signal: scope.signal })
      const id = taskId
      task = await withAbortScope([scope.signal], (signal) => client.request({ method: 'tasks/get', params: { taskId: id } }, GetTaskResultSchema, { signal, timeout: toolCallTimeoutMs }))
      status = task.status
    }
    const id = taskId
    // tasks/result blocks until the task is terminal: for input_required, that is the ceiling's to bound.
    return await withAbortScope([scope.signal], (signal) =>
      client.request({ method: 'tasks/result', params: { taskId: id } }, ANY_OBJECT, {
        signal,
        timeout: task.status === 'input_required' ? maxTotalTimeoutMs : toolCallTimeoutMs,
      }),
    )
  } catch (error) {
    // Whatever ended the call (an abort, the ceiling, a failed poll), a task still running is left
    // to no one; one the server no longer knows ("-32602 (Invalid params)" for a nonexistent
    // taskId) has nothing left to cancel.
    if (taskId !== undefined && !TERMINAL.has(status) && !isUnknownTask(error)) await cancelTask(client, taskId)
    throw explain(error, rawName, taskId, options.signal.aborted, scope.signal.reason === CEILING, maxTotalTimeoutMs)
  } finally {
    clearTimeout(ceiling)
    releaseCaller()
  }
}

/** The wait before the next tasks/get: the server's pollInterval, kept within bounds so that neither 0 (a busy loop) nor a huge value changes the call's limits. */
export function pollDelay(pollInterval: number | undefined, bounds: { minPollMs?: number; maxPollMs?: number } = {}): number {
  const min = bounds.minPollMs ?? 50
  const max = bounds.maxPollMs ?? 10_000
  const asked = typeof pollInterval === 'number' && Number.isFinite(pollInterval) ? pollInterval : DEFAULT_POLL_MS
  return Math.min(max, Math.max(min, asked))
}

/** A task id goes into every later request and into error messages: a short printable string, or the server broke the call. */
function checkedTaskId(taskId: string, rawName: string): string {
  if (/^[\x21-\x7e]{1,256}$/.test(taskId)) return taskId
  throw new BridgeError(`${rawName}: the server's task id is not 1-256 printable characters (${taskId.length} characters); the call cannot go on`, 'INVALID_RESULT')
}

const CEILING = Symbol('maxTotalTimeoutMs')

function isUnknownTask(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams
}

/** Best effort: a server that does not answer in time is not waited for. */
async function cancelTask(client: Client, taskId: string): Promise<void> {
  try {
    await client.request({ method: 'tasks/cancel', params: { taskId } }, ANY_OBJECT, { timeout: CANCEL_WAIT_MS })
  } catch {
    // Already terminal (-32602), gone, or unreachable: the call fails the same way.
  }
}

function explain(error: unknown, rawName: string, taskId: string | undefined, aborted: boolean, ceiling: boolean, maxTotalTimeoutMs: number): unknown {
  if (BridgeError.is(error)) return error
  const task = taskId === undefined ? 'its task was never created' : `task ${taskId}`
  if (aborted) return new BridgeError(`call to ${rawName} was aborted; ${taskId === undefined ? task : `${task} was sent tasks/cancel`}`, 'ABORTED', { cause: error })
  if (ceiling) {
    return new BridgeError(`${rawName} exceeded maxTotalTimeoutMs (${maxTotalTimeoutMs} ms) as a task; ${taskId === undefined ? task : `${task} was sent tasks/cancel`}`, 'TOOL_TIMEOUT', { cause: error })
  }
  // The SDK's own timeout of one of the task's requests; a server's -32001 answer is the session's
  // to name, like a plain call's (request-failure.ts).
  if (isSdkTimeout(error)) {
    return new BridgeError(`${rawName} (${task}) did not answer a request in time: ${errorMessage(error)}`, 'TOOL_TIMEOUT', { cause: error })
  }
  return error
}
