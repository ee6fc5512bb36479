import { describe, expect, it } from 'vitest'
import type { ClientAdapter } from '../src/client/adapter.ts'
import { loadScenarios } from '../src/client/load.ts'
import { runScenario } from '../src/client/run-scenario.ts'
import type { CheckStatus } from '../src/model.ts'
import { naiveClient, type Faults } from './support/naive-client.ts'

const scenarios = new Map(loadScenarios().map((loaded) => [loaded.scenario.id, loaded]))

async function statusOf(adapter: ClientAdapter, scenarioId: string, checkId: string): Promise<CheckStatus | 'absent'> {
  const result = await runScenario(scenarios.get(scenarioId)!, 'http', adapter, { updateSnapshots: false })
  return result.checks.find((check) => check.id === checkId)?.status ?? 'absent'
}

// Each known bug must flip a specific check from pass (sound naive client) to fail (buggy one).
const bugs: Array<{ fault: keyof Faults; scenario: string; check: string }> = [
  { fault: 'noHashSuffix', scenario: 'names-colliding-after-normalisation', check: 'expect/tools' },
  { fault: 'noHashSuffix', scenario: 'dotted-names', check: 'expect/public-names' },
  { fault: 'noRollback', scenario: 'foreign-registration-rollback', check: 'expect/tools' },
  { fault: 'noReconnect', scenario: 'http-404-session-expiry', check: 'expect/call-3' },
  { fault: 'staleWins', scenario: 'list-changed-storm', check: 'expect/tools' },
  { fault: 'publicNameOnWire', scenario: 'dotted-names', check: 'invariant/raw-names-on-wire' },
  { fault: 'leaveToolsOnDispose', scenario: 'clean-discovery', check: 'invariant/disposed-tools-gone' },
]

describe('the kit catches client bugs', () => {
  it.each(bugs)('$fault is caught by $scenario / $check', async ({ fault, scenario, check }) => {
    expect(await statusOf(naiveClient(), scenario, check)).toBe('pass')
    expect(await statusOf(naiveClient({ [fault]: true }), scenario, check)).toBe('fail')
  })
})
