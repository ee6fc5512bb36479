import { Config, type StdioConfig } from '@mcp-bridge/plugin'
import type { Scenario } from '../scenario.ts'
import { scenarioBound, type BoundSettings, type RunBound } from '../run-bound.ts'
import { driverBounds } from '../timing.ts'

let pluginDefaults: BoundSettings | undefined
/**
 * The plugin's own settings where a scenario sets none: the bound is derived from what the client
 * will use. Parsed on the first run only (they are the schema's defaults), a copy per caller.
 */
export function boundDefaults(): BoundSettings {
  if (!pluginDefaults) {
    const { connectTimeoutMs, toolCallTimeoutMs, maxTotalTimeoutMs, killGraceMs } = Config({ transport: 'stdio', serverName: 'kit', command: 'node' }) as StdioConfig
    pluginDefaults = { connectTimeoutMs, toolCallTimeoutMs, maxTotalTimeoutMs, killGraceMs }
  }
  return { ...pluginDefaults }
}

/**
 * The outer bound (run-bound.ts): past it the run is cut short, a harness error, never a hang.
 * A driven client's waits are the kit's bounds on its driver, as the driver adapter sets them for this config.
 */
export function runBound(scenario: Scenario, kind: 'bridge' | 'client', outerBoundMs: number | undefined): RunBound {
  const derived = scenarioBound(scenario, boundDefaults(), kind === 'client' ? driverBounds(scenario.client) : undefined)
  return outerBoundMs === undefined ? derived : { ...derived, ms: outerBoundMs, terms: 'set by the caller' }
}


/** Plants the scenario's host environment; the function returned puts back what was there. */
export function setEnv(vars: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]))
  Object.assign(process.env, vars)
  return () => {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
}
