/**
 * tasks/progress on recorded exchanges: the token the task-augmented call gave passes, another
 * fails under the sentence, and late progress for one of the kit's plain calls is left to
 * notifications/progress (no verdict here depends on how many notifications came).
 */
import { describe, expect, it } from 'vitest'
import { judgeTaskProgress } from '../src/server/evaluate/task-progress.ts'
import type { TaskObservation } from '../src/server/evaluate/tasks.ts'
import { callProgressToken, taskProgressToken } from '../src/server/progress-tokens.ts'
import type { RpcOutcome } from '../src/server/wire/types.ts'

const TOKEN = taskProgressToken(1)
const progress = (progressToken: unknown, value: number) => ({ dir: 'server→client' as const, message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: value } } })
const created: RpcOutcome = { kind: 'result', result: { task: { taskId: 't1', status: 'working' } }, wire: [] }

function observed(...tokens: unknown[]): TaskObservation {
  const get: RpcOutcome = { kind: 'result', result: { taskId: 't1', status: 'working' }, wire: tokens.map((t, i) => progress(t, i + 1)) }
  return { unknown: [], first: { create: created, taskId: 't1', progressToken: TOKEN, gets: [get] } }
}

describe('tasks/progress', () => {
  it('passes progress that keeps the task-augmented call’s token', () => {
    expect(judgeTaskProgress(observed(TOKEN, TOKEN), '2025-11-25')).toMatchObject({ status: 'pass', message: expect.stringMatching(/^2 distinct notifications\/progress about task "t1"/) })
  })

  it('fails progress that carries another token, quoting the sentence', () => {
    const verdict = judgeTaskProgress(observed(TOKEN, 't1'), '2025-11-25')
    expect(verdict).toMatchObject({ status: 'fail', message: expect.stringMatching(/carried progressToken "t1", not "mcp-conformance-task-progress-1"/) })
    expect(verdict.spec?.quote).toContain('MUST continue to be used for progress notifications throughout the task')
  })

  it('leaves late progress for a plain --call to notifications/progress, and skips when none came', () => {
    expect(judgeTaskProgress(observed(callProgressToken(1)), '2025-11-25').status).toBe('skip')
    expect(judgeTaskProgress(observed(), '2025-11-25')).toMatchObject({ status: 'skip', message: expect.stringMatching(/^no notifications\/progress arrived/) })
  })
})
