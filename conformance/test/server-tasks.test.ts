/**
 * The tasks checks against real servers: server-everything's task tool, a correct mcp-fixture
 * task server, and one broken fixture per MUST (its tool's `task.fault`), each of which must fail
 * exactly the check that judges the sentence it breaks, quoting that sentence, and nothing else.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckResult, SuiteResult } from '../src/model.ts'
import { runServerSuite } from '../src/server/run.ts'
import { everythingTarget } from '../src/server/target.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const FIXTURE = join(ROOT, 'fixtures-server/bin/mcp-fixture.js')
const CORRECT = join(import.meta.dirname, 'fixtures/task-servers/correct.json')
const CALLS = [
  { name: 'research', arguments: {} },
  { name: 'plain', arguments: {} },
]

const taskChecks = (suite: SuiteResult) => suite.checks.filter((c) => c.id.startsWith('tasks/'))
const byId = (suite: SuiteResult, id: string): CheckResult => {
  const found = suite.checks.find((c) => c.id === id)
  if (!found) throw new Error(`no check ${id}`)
  return found
}
const summary = (checks: CheckResult[]) => Object.fromEntries(checks.map((c) => [c.id, c.status]))

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-tasks-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** The correct fixture with `change` applied to its task tool's `task` options, served over stdio. */
async function runFixture(name: string, change: Record<string, unknown> = {}): Promise<SuiteResult> {
  const behaviour = JSON.parse(await readFile(CORRECT, 'utf8')) as { tools: { name: string; task?: Record<string, unknown> }[] }
  for (const tool of behaviour.tools) if (tool.task) Object.assign(tool.task, change)
  const file = join(dir, `${name}.json`)
  await writeFile(file, JSON.stringify(behaviour))
  return runServerSuite({ kind: 'stdio', command: process.execPath, args: [FIXTURE, file] }, { calls: CALLS })
}

describe('a correct task server (mcp-fixture)', () => {
  let suite: SuiteResult
  beforeAll(async () => {
    suite = await runFixture('correct')
  }, 60_000)

  it('passes every tasks check', () => {
    const checks = taskChecks(suite)
    expect(checks.map((c) => c.id).sort()).toEqual([
      'tasks/cancel',
      'tasks/cancel-terminal',
      'tasks/create',
      'tasks/forbidden-tool',
      'tasks/get',
      'tasks/get-polling',
      'tasks/list',
      'tasks/list-cursor',
      'tasks/progress',
      'tasks/related-meta',
      'tasks/result',
      'tasks/status',
      'tasks/undeclared-augmentation',
      'tasks/unknown-id',
    ])
    // It declares task-augmented tools/call, so the check of a server that does not has nothing to judge.
    // Over stdio no answer can be an event stream.
    expect(checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status} ${c.message}`)).toEqual([
      'tasks/get-polling: skip over stdio there is no event stream to upgrade to',
      'tasks/undeclared-augmentation: skip the server declares tasks.requests.tools.call',
    ])
    expect(byId(suite, 'tasks/progress').message).toMatch(/each with the progressToken its task-augmented tools\/call gave/)
  })

  it('compares tasks/result with a plain call when the tool allows one', async () => {
    const optional = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [FIXTURE, CORRECT] }, { calls: [{ name: 'quick', arguments: {} }] })
    expect(byId(optional, 'tasks/result').message).toMatch(/exactly what the plain call answered/)
  }, 60_000)
})

/** Each fault, the check that must fail, and words of the sentence it must quote. */
const BREACHES: [fault: string, check: string, quote: string, change?: Record<string, unknown>][] = [
  ['start-completed', 'tasks/create', 'Tasks MUST begin in the working status when created'],
  // Polled thrice before it may end: the poll made while tasks/result is pending cannot end it.
  ['early-result', 'tasks/result', 'it MUST block the response until the task reaches a terminal status', { polls: 3 }],
  ['no-related-meta', 'tasks/result', 'The tasks/result operation MUST include this metadata in its response'],
  ['no-ttl', 'tasks/get', 'Receivers MUST include the actual ttl duration'],
  ['reopen', 'tasks/status', 'MUST NOT transition to any other status'],
  ['list-omits', 'tasks/list', 'it MUST be retrievable via tasks/list'],
  ['cancel-keeps-working', 'tasks/cancel', 'MUST transition the task to cancelled status before sending the response'],
  ['cancel-terminal', 'tasks/cancel-terminal', 'Receivers MUST reject cancellation requests for tasks already in a terminal status'],
  ['reused-id', 'tasks/create', 'Task IDs MUST be unique among all tasks controlled by the receiver.'],
  ['unknown-id-code', 'tasks/unknown-id', 'Invalid or nonexistent taskId in tasks/get, tasks/result, or tasks/cancel: -32602'],
  ['progress-token', 'tasks/progress', "the progressToken provided in the original request MUST continue to be used for progress notifications throughout the task's lifetime"],
]

describe.each(BREACHES)('a task server with the %s fault', (fault, check, quote, change) => {
  let suite: SuiteResult
  beforeAll(async () => {
    suite = await runFixture(fault, { fault, ...change })
  }, 60_000)

  it(`fails ${check} under the sentence it breaks, and no other tasks check`, () => {
    const verdict = byId(suite, check)
    expect(verdict.status, verdict.message).toBe('fail')
    expect(verdict.spec?.quote).toContain(quote)
    expect(taskChecks(suite).filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id)).toEqual([check])
    expect(suite.checks.filter((c) => c.status === 'error')).toEqual([])
  })
})

describe('server-everything’s task tool (simulate-research-query)', () => {
  let suite: SuiteResult
  beforeAll(async () => {
    const { target } = everythingTarget()
    suite = await runServerSuite(target, { calls: [{ name: 'simulate-research-query', arguments: { topic: 'conformance' } }] })
  }, 120_000)

  it('creates, polls, waits on, lists and cancels its tasks, failing no tasks check', () => {
    const checks = summary(taskChecks(suite))
    expect(checks['tasks/create']).toBe('pass')
    expect(checks['tasks/get']).toBe('pass')
    expect(checks['tasks/status']).toBe('pass')
    expect(checks['tasks/result']).toBe('pass')
    expect(Object.entries(checks).filter(([, status]) => status === 'fail' || status === 'error')).toEqual([])
  })
})
