/**
 * Client mode, loaded on first use. It hosts the plugin (connection, session, transports, the
 * reference host), which a server-mode run has no use for: judging a server loads none of it
 * (conformance/test/server-mode-modules.test.ts).
 */
import type { ClientRunOptions } from '../client/index.ts'
import type { LoadedScenario } from '../client/load.ts'
import type { SuiteResult } from '../model.ts'

export type { ClientRunOptions, LoadedScenario }

const clientMode = () => import('../client/index.ts')

export async function listScenarios(): Promise<Array<{ id: string; title: string }>> {
  return (await clientMode()).listScenarios()
}

/** Every scenario, parsed and checked (the slow part of a run's start: read once, then handed to the run). */
export async function loadClientScenarios(): Promise<LoadedScenario[]> {
  return (await clientMode()).loadScenarios()
}

export async function runClientScenarios(options: ClientRunOptions): Promise<SuiteResult[]> {
  return (await clientMode()).runClientScenarios(options)
}
