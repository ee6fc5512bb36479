import type { ClientAdapter } from '../../src/client/adapter.ts'
import { loadScenarios } from '../../src/client/load.ts'
import { runScenario } from '../../src/client/run-scenario.ts'
import type { CheckStatus } from '../../src/model.ts'

const scenarios = new Map(loadScenarios().map((loaded) => [loaded.scenario.id, loaded]))

/** One check's status when `adapter` runs one built-in scenario: how a broken client is shown caught. */
export async function statusOf(adapter: ClientAdapter, scenarioId: string, checkId: string, transport: 'stdio' | 'http' = 'http'): Promise<CheckStatus | 'absent'> {
  const loaded = scenarios.get(scenarioId)
  if (!loaded) throw new Error(`no scenario ${scenarioId}`)
  const result = await runScenario(loaded, transport, adapter, { updateSnapshots: false })
  return result.checks.find((check) => check.id === checkId)?.status ?? 'absent'
}
