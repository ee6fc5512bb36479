// The conformance kit's client scenarios with the plugin hosted by the DeepSeek harness
// (dsh-tools' ToolRuntime) instead of the kit's reference registry. Runs under Node 22 in a project
// where this directory's package.json is installed with the three packed workspaces
// (@mcp-bridge/plugin, -fixtures-server, -conformance); test/dsh/kit.test.ts does exactly that.
//
//   node kit.mjs [--report-dir DIR] [--baseline FILE] [--scenario ID]... [--transport stdio|http]
//
// Writes results.json, junit.xml and report.html like `mcp-conformance`, with
// ./kit.baseline.yaml (the explained differences from the reference host) as the default
// baseline, prints a one-line summary on stderr, and exits with the report's exit code.
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { assembleReport, createDshAdapter, loadBaseline, runClientScenarios, writeReports } from '@mcp-bridge/conformance'
import { agentFor, createDshRoot } from './support/services.mjs'

const require = createRequire(import.meta.url)
const options = { reportDir: 'reports-dsh', baseline: fileURLToPath(new URL('kit.baseline.yaml', import.meta.url)), scenarioIds: [], transports: ['stdio', 'http'] }
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i++) {
  const [flag, value] = [argv[i], argv[i + 1]]
  if (value === undefined) usage(`${flag} needs a value`)
  if (flag === '--report-dir') options.reportDir = value
  else if (flag === '--baseline') options.baseline = value
  else if (flag === '--scenario') options.scenarioIds.push(value)
  else if (flag === '--transport' && (value === 'stdio' || value === 'http')) options.transports = [value]
  else usage(`unknown option ${flag} ${value}`)
  i++
}

function usage(message) {
  process.stderr.write(`kit.mjs: ${message}\nusage: node kit.mjs [--report-dir DIR] [--baseline FILE] [--scenario ID]... [--transport stdio|http]\n`)
  process.exit(2)
}

const baseline = await loadBaseline(options.baseline)
if (!baseline.ok) usage(`baseline ${baseline.error}`)
const adapter = createDshAdapter({
  createRoot: (models) => createDshRoot({ models }),
  agentFor: (route) => agentFor(route.model, { provider: route.provider }),
})
const startedAt = new Date()
const started = performance.now()
const suites = await runClientScenarios({
  transports: options.transports,
  scenarioIds: options.scenarioIds,
  updateSnapshots: false,
  adapter,
  onProgress: (line) => process.stderr.write(`  ${line}\n`),
})
const version = require('@mcp-bridge/conformance/package.json').version
const report = assembleReport({ suites, baseline: baseline.entries, tool: { name: 'mcp-conformance (dsh host)', version }, startedAt: startedAt.toISOString(), durationMs: Math.round(performance.now() - started) })
const written = await writeReports(report, options.reportDir)
const { pass, fail, warn, skip, error } = report.summary
const expected = report.suites.flatMap((suite) => suite.checks).filter((check) => check.expected).length
process.stderr.write(
  `kit.mjs (dsh host): ${suites.length} scenario runs, ${pass} passed, ${fail} failed (${expected} expected by the baseline), ${warn} warnings, ${skip} skipped, ${error} errors; ` +
    `${report.staleBaseline.length} stale baseline entries; wrote ${written.join(', ')}\n`,
)
process.exitCode = report.exitCode
