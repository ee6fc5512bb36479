import { describe, expect, it } from 'vitest'
import { naiveClient, type Faults } from './support/naive-client.ts'
import { statusOf } from './support/scenario-status.ts'

// Each known bug must flip a specific check from pass (sound naive client) to fail (buggy one).
const bugs: Array<{ fault: keyof Faults; scenario: string; check: string; transport?: 'stdio' | 'http' }> = [
  { fault: 'noHashSuffix', scenario: 'names-colliding-after-normalisation', check: 'expect/tools' },
  { fault: 'noHashSuffix', scenario: 'dotted-names', check: 'expect/public-names' },
  { fault: 'noRollback', scenario: 'foreign-registration-rollback', check: 'expect/tools' },
  { fault: 'noReconnect', scenario: 'http-404-session-expiry', check: 'expect/call-3' },
  { fault: 'staleWins', scenario: 'list-changed-storm', check: 'expect/tools' },
  { fault: 'publicNameOnWire', scenario: 'dotted-names', check: 'invariant/raw-names-on-wire' },
  { fault: 'leaveToolsOnDispose', scenario: 'clean-discovery', check: 'invariant/disposed-tools-gone' },
  // A batch that failed half way leaves out tools it never exposed: still a partial generation.
  { fault: 'noRollback', scenario: 'foreign-registration-rollback', check: 'invariant/no-partial-generation' },
  // Rollback of additions alone: the changed and the removed tool stay as the refused list had them.
  { fault: 'rollbackAddsOnly', scenario: 'foreign-registration-rollback', check: 'expect/descriptions' },
  { fault: 'rollbackAddsOnly', scenario: 'foreign-registration-rollback', check: 'expect/tools' },
  // Time as evidence: the right outcome, too late.
  { fault: 'lateTimeout', scenario: 'call-timeout-sends-cancelled', check: 'timing/step-1' },
  { fault: 'lateConnectTimeout', scenario: 'hang-on-initialize', check: 'timing/start' },
  // A retry after the backoff lands inside the settle window, not after the judging; a 401 is
  // refused before any JSON-RPC is read, so the HTTP log is the evidence.
  { fault: 'retryUnauthorized', scenario: 'http-401-unauthorized', check: 'expect/http-status/401/initialize' },
  { fault: 'ignoreToolFilters', scenario: 'tool-filters-include-exclude', check: 'expect/tools' },
  { fault: 'silentFilterTypos', scenario: 'tool-filters-include-exclude', check: 'expect/logs' },
  // Task-based tools: the fixture answers a required tool called plainly with -32601.
  { fault: 'plainTaskCalls', scenario: 'task-required-tool-called-as-task', check: 'expect/call-1' },
  { fault: 'plainTaskCalls', scenario: 'task-required-tool-called-as-task', check: 'expect/received/tasks/result' },
  { fault: 'plainTaskCalls', scenario: 'task-required-tool-never-called-plainly', check: 'invariant/task-negotiation' },
  { fault: 'taskEverything', scenario: 'task-required-tool-never-called-plainly', check: 'invariant/task-negotiation' },
  { fault: 'noTaskCancel', scenario: 'task-caller-abort-sends-tasks-cancel', check: 'expect/received/tasks/cancel' },
  { fault: 'noTaskCancel', scenario: 'task-never-finishing-ends-at-total-timeout', check: 'expect/received/tasks/cancel' },
  // Time as evidence: the same four polls and the same result, in a few milliseconds instead of four poll intervals.
  { fault: 'busyPolling', scenario: 'task-poll-interval-honoured', check: 'timing/step-1' },
  { fault: 'noTaskCeiling', scenario: 'task-never-finishing-ends-at-total-timeout', check: 'timing/step-1' },
  { fault: 'retryLostTask', scenario: 'task-lost-surfaces-as-error', check: 'timing/step-1' },
  // The per-request timeout bounds a poll too: twenty times over, the hung tasks/get is waited on for 10 s.
  { fault: 'lateTimeout', scenario: 'task-poll-that-never-answers-times-out', check: 'timing/step-1' },
  { fault: 'pollThroughInput', scenario: 'task-input-required-answered-through-tasks-result', check: 'expect/received/tasks/result' },
  { fault: 'optionalAsTask', scenario: 'task-optional-tool-called-plainly-by-default', check: 'expect/received/tasks/get' },
  { fault: 'ignorePreferTaskCalls', scenario: 'task-optional-tool-called-as-task-when-preferred', check: 'expect/received/tasks/result' },
  // A server process is only the client's over stdio.
  { fault: 'keepServerOnFailedConnect', scenario: 'hang-on-initialize', check: 'expect/running', transport: 'stdio' },
]

describe('the kit catches client bugs', () => {
  it.each(bugs)('$fault is caught by $scenario / $check', async ({ fault, scenario, check, transport = 'http' }) => {
    expect(await statusOf(naiveClient(), scenario, check, transport)).toBe('pass')
    expect(await statusOf(naiveClient({ [fault]: true }), scenario, check, transport)).toBe('fail')
  })
})
