/**
 * The plugin's own start for a stdio-only configuration, in fresh processes: the import of its
 * entry, and the time from that import to the first tool registered (a stdio fixture with one
 * tool, a minimal `tools` service, Cordis loaded before the clock starts). Compares built entries
 * (default: plugin/dist/index.js alone), interleaved, and prints medians and the load average.
 *
 *   node bench/plugin-start.mjs [runs] [entry.js ...]
 */
import { execFileSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import { FIRST_TOOL_CHILD } from './first-tool-child.mjs'

const runs = Number(process.argv[2] ?? 9)
const entries = process.argv.slice(3).length ? process.argv.slice(3) : [fileURLToPath(new URL('../plugin/dist/index.js', import.meta.url))]
const fixture = fixtureCommand({ tools: [{ name: 'echo' }] })

const samples = entries.map(() => ({ imported: [], firstTool: [] }))
const load = [loadavg()[0]]
for (let round = 0; round <= runs; round++) {
  // Which entry goes first flips each round; round 0 warms the file cache and is not counted.
  const order = entries.map((_, i) => i)
  if (round % 2) order.reverse()
  for (const i of order) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', FIRST_TOOL_CHILD], {
      cwd: fileURLToPath(new URL('../plugin/', import.meta.url)),
      env: { ...process.env, CORDIS: 'cordis', ENTRY: pathToFileURL(entries[i]).href, FIXTURE: JSON.stringify(fixture) },
      encoding: 'utf8',
      timeout: 60_000,
    })
    if (round === 0) continue
    const { imported, firstTool } = JSON.parse(out)
    samples[i].imported.push(imported)
    samples[i].firstTool.push(firstTool)
  }
}
load.push(loadavg()[0])
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
for (const [i, entry] of entries.entries()) {
  console.log(`${entry}: import ${median(samples[i].imported).toFixed(0)} ms, first tool ${median(samples[i].firstTool).toFixed(0)} ms (medians of ${runs})`)
}
console.log(`1-minute load average ${load[0].toFixed(1)} before, ${load[1].toFixed(1)} after`)
