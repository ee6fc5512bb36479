/**
 * tasks/status is judged on the kit's answers, never on where a status notification fell among
 * them: the server's scheduling decides that, and a verdict must not depend on it.
 */
import { describe, expect, it } from 'vitest'
import { judgeTasks, type TaskObservation } from '../src/server/evaluate/tasks.ts'
import type { RpcOutcome, WireEntry } from '../src/server/wire/types.ts'

const ID = 'task-1'
const task = (status: string) => ({ taskId: ID, status, createdAt: '2026-12-06T00:00:00Z', lastUpdatedAt: '2026-12-06T00:00:00Z', ttl: 60_000 })
const notice = (status: string): WireEntry => ({ dir: 'server→client', message: { jsonrpc: '2.0', method: 'notifications/tasks/status', params: task(status) } })
const answer = (result: unknown, before: WireEntry[] = []): RpcOutcome => ({ kind: 'result', result, wire: [...before] })

function observation(gets: RpcOutcome[]): TaskObservation {
  return { tool: 'research', first: { create: answer({ task: task('working') }), taskId: ID, gets }, unknown: [] }
}

const statusOf = (obs: TaskObservation) => judgeTasks(obs, '2025-11-25').find((c) => c.id === 'tasks/status')!

describe('tasks/status', () => {
  it('passes answers that only move forward, and tells a late working notification in the message', () => {
    const verdict = statusOf(observation([answer(task('working')), answer(task('completed')), answer(task('completed'), [notice('working')])]))
    expect(verdict.status).toBe('pass')
    expect(verdict.message).toMatch(/notification out of step/)
  })

  it('gives the same status when the notification came in step', () => {
    const verdict = statusOf(observation([answer(task('working'), [notice('working')]), answer(task('completed')), answer(task('completed'))]))
    expect(verdict.status).toBe('pass')
    expect(verdict.message).not.toMatch(/out of step/)
  })

  it('fails an answer that shows an ended task working again', () => {
    const verdict = statusOf(observation([answer(task('completed')), answer(task('working'))]))
    expect(verdict.status).toBe('fail')
    expect(verdict.spec?.quote).toContain('MUST NOT transition to any other status')
  })
})
