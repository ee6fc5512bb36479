/**
 * "Receivers that do not declare the task capability for a request type MUST process requests of
 * that type normally, ignoring any task-augmentation metadata": a server without tasks that runs a
 * task-augmented tools/call as a plain one passes tasks/undeclared-augmentation; the same server
 * answering it with a CreateTaskResult fails exactly that check. A real stdio server process,
 * scripted in this file.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { delta } from './server-helpers.ts'
import { findCheck as find } from './support/find-check.ts'
import { lineServerFile, lineServerSource } from './support/line-server.ts'

// Declares tools only; with "tasks" as its argument it answers a task-augmented call with a task.
const SERVER = lineServerSource(
  `const makesTasks = process.argv[2] === 'tasks'
const now = new Date().toISOString()
const TOOL = { name: 'echo', description: 'Echoes its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }
function call(params) {
  if (makesTasks && params.task) return { result: { task: { taskId: 't-1', status: 'working', createdAt: now, lastUpdatedAt: now, ttl: 60000 } } }
  return { result: { content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] } }
}`,
  `message.method === 'initialize'
      ? { result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'no-tasks', version: '1.0.0' } } }
      : message.method === 'ping' ? { result: {} }
      : message.method === 'tools/list' ? { result: { tools: [TOOL] } }
      : message.method === 'tools/call' ? (message.params.name === 'echo' ? call(message.params) : { error: { code: -32602, message: 'Unknown tool' } })
      : { error: { code: -32601, message: 'Method not found' } }`,
)

const script = lineServerFile(SERVER)

function run(mode: 'plain' | 'tasks'): Promise<SuiteResult> {
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [script(), mode] }, { requestTimeoutMs: 5_000, exitGraceMs: 1_000, calls: [{ name: 'echo', arguments: { text: 'hi' } }] })
}

describe('a task-augmented tools/call to a server that does not declare tasks', () => {
  let plain: SuiteResult
  let tasks: SuiteResult
  beforeAll(async () => {
    ;[plain, tasks] = await Promise.all([run('plain'), run('tasks')])
  }, 60_000)

  it('is run as a plain call by a server that ignores the task metadata: a pass', () => {
    expect(find(plain, 'tasks/undeclared-augmentation')).toMatchObject({ status: 'pass', message: 'a task-augmented tools/call of "echo" was run as a plain call: a result without a task' })
  })

  it('answered with a CreateTaskResult fails exactly tasks/undeclared-augmentation, under the MUST', () => {
    expect(find(tasks, 'tasks/undeclared-augmentation')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^the server does not declare tasks\.requests\.tools\.call, yet a task-augmented tools\/call of "echo" got a CreateTaskResult \(task "t-1"\)/),
      spec: { keyword: 'MUST', quote: expect.stringContaining('MUST process requests of that type normally') },
    })
    expect(delta(plain, tasks)).toEqual({ 'tasks/undeclared-augmentation': 'fail' })
  })
})
