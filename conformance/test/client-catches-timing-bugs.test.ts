import { describe, it } from 'vitest'
import { expectCaught, type KnownBug } from './support/caught-bug.ts'

// The client bugs whose only evidence is time: the right outcome, too soon or too late. Other files
// beside this one slowed the buggy clients until they looked sound, so vitest.workspace.ts runs it
// last and alone; the other known bugs are in client-catches-bugs.test.ts.
const bugs: KnownBug[] = [
  // Time as evidence: the right outcome, too late.
  { fault: 'lateTimeout', scenario: 'call-timeout-sends-cancelled', check: 'timing/step-1' },
  { fault: 'lateConnectTimeout', scenario: 'hang-on-initialize', check: 'timing/start' },
  // A retry after the backoff lands inside the settle window, not after the judging; a 401 is
  // refused before any JSON-RPC is read, so the HTTP log is the evidence.
  { fault: 'retryUnauthorized', scenario: 'http-401-unauthorized', check: 'expect/http-status/401/initialize' },
  // Time as evidence: the same four polls and the same result, in a few milliseconds instead of four poll intervals.
  { fault: 'busyPolling', scenario: 'task-poll-interval-honoured', check: 'timing/step-1' },
  { fault: 'noTaskCeiling', scenario: 'task-never-finishing-ends-at-total-timeout', check: 'timing/step-1' },
  { fault: 'retryLostTask', scenario: 'task-lost-surfaces-as-error', check: 'timing/step-1' },
  // The per-request timeout bounds a poll too: twenty times over, the hung tasks/get is waited on for 10 s.
  { fault: 'lateTimeout', scenario: 'task-poll-that-never-answers-times-out', check: 'timing/step-1' },
]

describe('the kit catches client bugs that show as time', () => {
  it.each(bugs)('$fault is caught by $scenario / $check', (bug) => expectCaught(bug))
})
