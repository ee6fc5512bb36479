import type { SuiteResult } from '../model.ts'

export interface ClientRunOptions {
  transports: Array<'stdio' | 'http'>
  scenarioIds: string[]
  updateSnapshots: boolean
  shard?: { index: number; count: number }
  onProgress?: (line: string) => void
}

/** Runs the client scenarios against the built-in adapter (our plugin). Being built in issue 6. */
export async function runClientScenarios(_options: ClientRunOptions): Promise<SuiteResult[]> {
  throw new Error('client scenarios are not built yet')
}

/** One line per scenario: id and title. */
export async function listScenarios(): Promise<Array<{ id: string; title: string }>> {
  return []
}
