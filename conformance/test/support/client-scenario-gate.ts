import { describe, expect, it } from 'vitest'
import type { Transport } from '../../src/cli/parse.ts'
import { scenarioNotApplicable } from '../../src/client/applicability.ts'
import { loadScenarios } from '../../src/client/load.ts'
import { runScenario } from '../../src/client/run-scenario.ts'
import { bridgeAdapter } from '../../src/client/bridge-adapter.ts'
import { BRIDGE_BEYOND_FEATURES } from '../../src/client/bridge-ask.ts'

/**
 * The kit's own gate: every scenario that declares `transport`, against our plugin. One file per
 * transport (client-scenarios-stdio/-http.test.ts), so that two workers share the 2-3 minutes of
 * real waits instead of one file starting late and running on alone. Snapshots are compared, never
 * written here (runClientScenarios refuses to write them with CI=true).
 */
export function describeScenarioGate(transport: Transport): void {
  const cases = loadScenarios().filter((loaded) => loaded.scenario.transports.includes(transport))
  describe('client scenarios against the bridge plugin', () => {
    it.each(cases.map((loaded) => [`${loaded.scenario.id} [${transport}]`, loaded] as const))('%s', async (_name, loaded) => {
      const result = await runScenario(loaded, transport, bridgeAdapter, { updateSnapshots: false })
      // A feature the bridge does not offer: not applicable, never failed.
      if (scenarioNotApplicable(loaded.scenario, 'bridge', BRIDGE_BEYOND_FEATURES) !== undefined) return expect(result.checks.map((check) => check.status)).toEqual(['skip'])
      const failures = result.checks.filter((check) => check.status === 'fail' || check.status === 'error').map((check) => `${check.id}: ${check.message}`)
      expect(failures).toEqual([])
      expect(result.checks.length).toBeGreaterThan(7)
    })
  })
}
