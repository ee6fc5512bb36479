import { describe, it } from 'vitest'
import { expectCaught, type KnownBug } from './support/caught-bug.ts'

// The client bugs whose evidence is an outcome that comes too late: a bound applied twenty times
// over, a ceiling missing, a lost task polled on. Load only makes a late outcome later, so these run
// with the other files; the bugs that show as too soon, which load blurs, are in
// client-catches-timing-bugs.test.ts (last and alone), the others in client-catches-bugs.test.ts.
const bugs: KnownBug[] = [
  { fault: 'lateTimeout', scenario: 'call-timeout-sends-cancelled', check: 'timing/step-1' },
  { fault: 'lateConnectTimeout', scenario: 'hang-on-initialize', check: 'timing/start' },
  { fault: 'noTaskCeiling', scenario: 'task-never-finishing-ends-at-total-timeout', check: 'timing/step-1' },
  { fault: 'retryLostTask', scenario: 'task-lost-surfaces-as-error', check: 'timing/step-1' },
  // The per-request timeout bounds a poll too: twenty times over, the hung tasks/get is waited on for 10 s.
  { fault: 'lateTimeout', scenario: 'task-poll-that-never-answers-times-out', check: 'timing/step-1' },
]

describe('the kit catches client bugs that show as an outcome too late', () => {
  it.each(bugs)('$fault is caught by $scenario / $check', (bug) => expectCaught(bug))
})
