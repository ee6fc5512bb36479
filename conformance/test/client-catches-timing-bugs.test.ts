import { describe, it } from 'vitest'
import { expectCaught, type KnownBug } from './support/caught-bug.ts'

// The client bugs whose only evidence is an outcome too soon. Other files beside this one slowed
// the buggy clients until they looked sound, so vitest.workspace.ts runs it last and alone; the
// bugs that show as too late (which load cannot hide) are in client-catches-late-bugs.test.ts, the
// other known bugs in client-catches-bugs.test.ts.
const bugs: KnownBug[] = [
  // A retry after the backoff lands inside the settle window, not after the judging; a 401 is
  // refused before any JSON-RPC is read, so the HTTP log is the evidence.
  { fault: 'retryUnauthorized', scenario: 'http-401-unauthorized', check: 'expect/http-status/401/initialize' },
  // The same four polls and the same result, in a few milliseconds instead of four poll intervals.
  { fault: 'busyPolling', scenario: 'task-poll-interval-honoured', check: 'timing/step-1' },
]

describe('the kit catches client bugs that show as time', () => {
  it.each(bugs)('$fault is caught by $scenario / $check', (bug) => expectCaught(bug))
})
