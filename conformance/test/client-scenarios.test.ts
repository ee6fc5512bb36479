import { describe, expect, it } from 'vitest'
import { scenarioNotApplicable } from '../src/client/applicability.ts'
import { loadScenarios } from '../src/client/load.ts'
import { runScenario } from '../src/client/run-scenario.ts'
import { bridgeAdapter } from '../src/client/bridge-adapter.ts'
import { BRIDGE_BEYOND_FEATURES } from '../src/client/bridge-ask.ts'

// Every scenario, over every transport it declares, against our plugin: the kit's own gate.
// Snapshots are compared, never written here (runClientScenarios refuses to write them with CI=true).
const cases = loadScenarios().flatMap((loaded) => loaded.scenario.transports.map((transport) => ({ loaded, transport })))

describe('client scenarios against the bridge plugin', () => {
  it.each(cases.map((c) => [`${c.loaded.scenario.id} [${c.transport}]`, c] as const))('%s', async (_name, { loaded, transport }) => {
    const result = await runScenario(loaded, transport, bridgeAdapter, { updateSnapshots: false })
    // A feature the bridge does not offer: not applicable, never failed.
    if (scenarioNotApplicable(loaded.scenario, 'bridge', BRIDGE_BEYOND_FEATURES) !== undefined) return expect(result.checks.map((check) => check.status)).toEqual(['skip'])
    const failures = result.checks.filter((check) => check.status === 'fail' || check.status === 'error').map((check) => `${check.id}: ${check.message}`)
    expect(failures).toEqual([])
    expect(result.checks.length).toBeGreaterThan(7)
  })
})
