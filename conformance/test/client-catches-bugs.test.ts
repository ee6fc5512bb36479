import { describe, it } from 'vitest'
import { expectCaught, type KnownBug } from './support/caught-bug.ts'

// Each known bug must flip a specific check from pass (sound naive client) to fail (buggy one).
// The bugs that show as time alone are in client-catches-timing-bugs.test.ts, which runs alone.
const bugs: KnownBug[] = [
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
  { fault: 'ignoreToolFilters', scenario: 'tool-filters-include-exclude', check: 'expect/tools' },
  { fault: 'silentFilterTypos', scenario: 'tool-filters-include-exclude', check: 'expect/logs' },
  // Task-based tools: the fixture answers a required tool called plainly with -32601.
  { fault: 'plainTaskCalls', scenario: 'task-required-tool-called-as-task', check: 'expect/call-1' },
  { fault: 'plainTaskCalls', scenario: 'task-required-tool-called-as-task', check: 'expect/received/tasks/result' },
  { fault: 'plainTaskCalls', scenario: 'task-required-tool-never-called-plainly', check: 'invariant/task-negotiation' },
  { fault: 'taskEverything', scenario: 'task-required-tool-never-called-plainly', check: 'invariant/task-negotiation' },
  { fault: 'noTaskCancel', scenario: 'task-caller-abort-sends-tasks-cancel', check: 'expect/received/tasks/cancel' },
  { fault: 'noTaskCancel', scenario: 'task-never-finishing-ends-at-total-timeout', check: 'expect/received/tasks/cancel' },
  { fault: 'pollThroughInput', scenario: 'task-input-required-answered-through-tasks-result', check: 'expect/received/tasks/result' },
  { fault: 'optionalAsTask', scenario: 'task-optional-tool-called-plainly-by-default', check: 'expect/received/tasks/get' },
  { fault: 'ignorePreferTaskCalls', scenario: 'task-optional-tool-called-as-task-when-preferred', check: 'expect/received/tasks/result' },
  // A server process is only the client's over stdio.
  { fault: 'keepServerOnFailedConnect', scenario: 'hang-on-initialize', check: 'expect/running', transport: 'stdio' },
]

describe('the kit catches client bugs', () => {
  it.each(bugs)('$fault is caught by $scenario / $check', (bug) => expectCaught(bug))
})
