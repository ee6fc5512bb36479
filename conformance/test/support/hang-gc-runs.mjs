/* global setInterval, clearInterval */
// Runs the hang-on-initialize scenario (stdio) against the built plugin many times, with garbage
// collected every few milliseconds (node --expose-gc): a deadline that can be collected before it
// fires shows as a run that hangs until its outer bound. One JSON line per run on stdout; it
// stops at the first run that did not end cleanly.
// argv: lanes (runs at once), runs per lane, GC interval in ms.
import { loadScenarios } from '../../dist/client/load.js'
import { runScenario } from '../../dist/client/run-scenario.js'
import { bridgeAdapter } from '../../dist/client/bridge-adapter.js'

if (typeof globalThis.gc !== 'function') throw new Error('run me with node --expose-gc')
const [lanes, perLane, gcEveryMs] = process.argv.slice(2).map(Number)
const loaded = loadScenarios().find((s) => s.scenario.id === 'hang-on-initialize')
const collecting = setInterval(() => globalThis.gc(), gcEveryMs)
let broken = false
await Promise.all(
  Array.from({ length: lanes }, async (_, lane) => {
    for (let run = 0; run < perLane && !broken; run++) {
      const suite = await runScenario(loaded, 'stdio', bridgeAdapter, { updateSnapshots: false })
      const checks = suite.checks.map(({ id, status, message }) => ({ id, status, message: message.slice(0, 400) }))
      if (checks.some((check) => check.status === 'error')) broken = true
      process.stdout.write(`${JSON.stringify({ lane, run, durationMs: suite.durationMs, checks })}\n`)
    }
  }),
)
clearInterval(collecting)
