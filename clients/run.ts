/**
 * `npm run clients [-- <client id>...]`: every client scenario against every client below (or the
 * ones named), over stdio and Streamable HTTP, then conformance/docs/CLIENTS.md (clients/table.ts).
 * Each client's record (its verdicts and provenance) is kept in clients/table-data.json, so naming
 * clients re-runs only their columns and the table keeps the others as they were judged. The real
 * clients are pinned in clients/package.json (installed by the npm script, never by the main
 * install) and run under the pinned Node 22 of scripts/node22.mjs, which some of them require.
 * Exit 1 on a harness error (a verdict the table could not give), 2 on a usage error, else 0: the
 * table is the output, failures included.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bridgeAdapter } from '../conformance/src/client/bridge-adapter.ts'
import { driverAdapter } from '../conformance/src/client/driver/adapter.ts'
import { runClientScenarios } from '../conformance/src/client/index.ts'
import { erasOf } from '../conformance/src/client/table.ts'
// @ts-expect-error: a plain ES module without declarations
import { ensureNode22, NODE22_VERSION } from '../scripts/node22.mjs'
import { packagesOf, provenance } from '../scripts/provenance.mjs'
import { mergeRecords, recordsJson } from '../scripts/table-evidence.mjs'
import { REPO_ROOT, TABLES } from '../scripts/verdict-digest.mjs'
import { formatClients, revisionsOf, runsOf, type ClientRecord } from './table.ts'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * `driver`: the driver file, relative to the repository root; `node22`: it runs under the pinned
 * Node 22 (else this Node); `packages`: what is reported as judged, each with the MCP SDK it loads.
 */
interface Client {
  id: string
  name: string
  about: string
  packages: string[]
  driver?: string
  node22?: true
}

const CLIENTS: Client[] = [
  { id: 'mcp-bridge', name: 'mcp-bridge (ours)', packages: ['@mcp-bridge/plugin'], about: 'this repository\'s plugin, in-process (the built-in adapter), judged as a bridge: every expectation applies' },
  { id: 'sdk', name: '@modelcontextprotocol/sdk', packages: ['@modelcontextprotocol/sdk'], driver: 'conformance/drivers/sdk-client.mjs', about: 'raw `Client` with `listChanged.tools` (debounced re-list, pages followed, a repeated cursor ends discovery), `callTool` with `timeout` and `signal`; StdioClientTransport\'s default environment; beyond tools `listResources`, `listResourceTemplates`, `listPrompts` (pages followed by the driver), `readResource`, `getPrompt`, `complete`, each asked only of a server that declared its capability' },
  { id: 'sdk-v2', name: '@modelcontextprotocol/client', packages: ['@modelcontextprotocol/client'], driver: 'conformance/drivers/sdk-v2-client.mjs', about: 'the SDK\'s v2 `Client` with `versionNegotiation: { mode: \'auto\' }` (a `server/discover` probe, then 2026-07-28 or the legacy handshake), `listTools()`, `callTool` with `timeout` and `signal`; beyond tools its own `listResources()`, `listResourceTemplates()`, `listPrompts()` (it walks the pages), `readResource`, `getPrompt`, `complete`' },
  { id: 'ai-sdk', name: '@ai-sdk/mcp', packages: ['@ai-sdk/mcp'], driver: 'clients/drivers/ai-sdk.mjs', node22: true, about: '`createMCPClient` (HTTP transport config, or `Experimental_StdioMCPTransport`), `tools()` and each tool\'s `execute` with `abortSignal`; no per-call timeout setting and no list_changed: its defaults; beyond tools `listResources` and `listPrompts` (pages followed by the driver: they take a cursor), `listResourceTemplates` (no cursor: one page), `readResource`, `getPrompt`, `complete`' },
  { id: 'langchain', name: '@langchain/mcp-adapters', packages: ['@langchain/mcp-adapters'], driver: 'clients/drivers/langchain.mjs', node22: true, about: '`MultiServerMCPClient` (`useStandardContentBlocks`, `defaultToolTimeout`), `getTools()`, `tool.invoke(args, { signal })`; no list_changed; beyond tools `listResources`, `listResourceTemplates`, `readResource` (no prompts, no completions)' },
  { id: 'openai-agents', name: '@openai/agents', packages: ['@openai/agents', '@openai/agents-core'], driver: 'clients/drivers/openai-agents.mjs', node22: true, about: '`MCPServerStdio` / `MCPServerStreamableHttp` with `timeout`, `listTools()`, `callTool(name, args, undefined, { signal })`; no list_changed; beyond tools `listResources` and `listResourceTemplates` (pages followed by the driver), `readResource` (no prompts, no completions)' },
  { id: 'mcp-use', name: 'mcp-use', packages: ['mcp-use'], driver: 'clients/drivers/mcp-use.mjs', node22: true, about: '`MCPClient` with one server, `createSession()`, `session.tools`, `session.callTool(name, args, { timeout, signal })`, `closeAllSessions()`; follows list_changed by itself (declared `listChanged`); no connect timeout setting: its defaults (HTTP 10 s, stdio the SDK\'s 60 s). 1.34.6 is the newest release that ships a client (2.x leaves it to `@mcp-use/client`, which is not on the registry); beyond tools `listAllResources()`, `listResourceTemplates()`, `listPrompts()`, `readResource`, `getPrompt`, `complete`' },
  { id: 'dsh-seed', name: 'dsh-mcp-client (seed)', packages: ['@deepseek-ai/dsh-mcp-client', '@deepseek-ai/cordis', '@deepseek-ai/dsh-tools', '@deepseek-ai/dsh-system-prompt'], driver: 'clients/drivers/dsh-seed.mjs', node22: true, about: 'the seed plugin in its own host: `@deepseek-ai/cordis` with dsh-system-prompt and dsh-tools\' `ToolRuntime`; `ToolRuntime.schemas()` for the tools, `ToolRuntime.execute()` with the signal for a call, plugin disposal to close; its README\'s configuration table: `toolCallTimeoutMs` from the scenario, `reconnect` and `failOnStartupError` at their defaults, no connect timeout (its README: inherited from the SDK); re-syncs on list_changed (declared `listChanged`)' },
  { id: 'mastra', name: '@mastra/mcp', packages: ['@mastra/mcp'], driver: 'clients/drivers/mastra.mjs', node22: true, about: '`MCPClient` with `timeout`, `listTools()` (names `fixture_<tool>`), `tool.execute(args, { abortSignal })`, `disconnect()`; no list_changed; beyond tools `resources.list()`, `resources.templates()`, `resources.read()`, `prompts.list()`, `prompts.get()` (no completions)' },
]

// `npm run clients -- [client id...] [--scenario id]... [--transport stdio|http]`. Client ids alone
// re-run those columns of the table; a scenario or transport filter gives an incomplete column,
// so its table goes to a temporary file, never over conformance/docs/CLIENTS.md.
const argv = process.argv.slice(2)
const wanted: string[] = []
const scenarioIds: string[] = []
let transports: Array<'stdio' | 'http'> = ['stdio', 'http']
// Scenario runs side by side within each client (the kit's --jobs); verdicts are the serial run's.
let jobs = 1
// --render: no client runs; conformance/docs/CLIENTS.md is rendered again from the stored records
// (after a change to clients/table.ts), each row keeping the provenance it was judged with.
let renderOnly = false
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--scenario') scenarioIds.push(argv[++i]!)
  else if (argv[i] === '--render') renderOnly = true
  else if (argv[i] === '--jobs') jobs = Number(argv[++i])
  else if (argv[i] === '--transport') transports = [argv[++i] as 'stdio' | 'http']
  else wanted.push(argv[i]!)
}
const unknown = wanted.filter((id) => !CLIENTS.some((c) => c.id === id))
if (unknown.length || transports.some((t) => t !== 'stdio' && t !== 'http') || !(Number.isInteger(jobs) && jobs >= 1)) {
  const problem = unknown.length ? `unknown client ${unknown.map((id) => `"${id}"`).join(', ')}` : !(Number.isInteger(jobs) && jobs >= 1) ? '--jobs takes a whole number of 1 or more' : '--transport takes stdio or http'
  process.stderr.write(`clients: ${problem}; the clients are ${CLIENTS.map((c) => c.id).join(', ')}\n`)
  process.exit(2)
}
const partial = scenarioIds.length > 0 || transports.length < 2

const node22 = (ensureNode22 as () => string)()
const started = performance.now()
// Read before any client runs: the rows name the code that judged them.
const judgedBy = provenance('clients')
const records: ClientRecord[] = []
let harnessErrors = 0
for (const client of renderOnly ? [] : CLIENTS.filter((c) => !wanted.length || wanted.includes(c.id))) {
  const driverFile = client.driver ? join(REPO_ROOT, client.driver) : undefined
  // Resolved as the driver (or, for the built-in adapter, the kit) loads them.
  const packages = [...new Set(client.packages.flatMap((name) => packagesOf(name, dirname(driverFile ?? join(REPO_ROOT, 'conformance/package.json')))))]
  process.stderr.write(`clients: ${client.name} (${packages.join(', ')})\n`)
  const adapter = driverFile ? driverAdapter(`${client.node22 ? node22 : process.execPath} ${driverFile}`, client.name) : bridgeAdapter
  const suites = await runClientScenarios({ transports, scenarioIds, updateSnapshots: false, adapter, jobs, onProgress: (line) => process.stderr.write(`  ${line}\n`) })
  const runs = runsOf(suites)
  harnessErrors += runs.filter((run) => run.cell === 'error').length
  records.push({
    id: client.id,
    name: client.name,
    about: `${client.about}.${client.driver ? ` Driver: \`${client.driver}\`.` : ''}`,
    ...(client.driver ? { driver: `${client.node22 ? '$(node scripts/node22.mjs)' : 'node'} ${client.driver}` } : {}),
    revisions: revisionsOf(suites),
    era: erasOf(suites),
    provenance: { row: client.id, packages, node: client.node22 ? `v${NODE22_VERSION as string}` : process.version, ...judgedBy },
    runs,
  })
}

const intro = `# MCP clients against hostile servers

<!-- Generated by \`npm run clients\` (clients/run.ts, clients/table.ts); do not edit by hand. -->

Every client scenario of the conformance kit (scenarios/, conformance/FORMAT.md) against each
client below, over stdio and Streamable HTTP. Our plugin is judged as a bridge, on every
expectation; every other client is driven through the driver protocol and judged only on what the
MCP specification asks of every client. What the spec leaves to the client is not applicable
(listed at the end), and a SHOULD breached is a warning. \`npm run clients -- <id>\` re-runs one
client's column (ids in clients/README.md) and keeps the others.`
const findings = readFileSync(here('./FINDINGS.md'), 'utf8')
const store = here('./table-data.json')
let out: string
let table: ClientRecord[]
if (partial) {
  out = join(tmpdir(), 'CLIENTS.partial.md')
  table = records
} else {
  // The columns not re-run keep their stored record; a client no longer listed drops out.
  const kept = existsSync(store) ? (JSON.parse(readFileSync(store, 'utf8')) as { clients: ClientRecord[] }).clients : []
  table = mergeRecords(kept, records, CLIENTS.map((c) => c.id), (r) => r.id)
  writeFileSync(store, `${recordsJson({ clients: table }, 4)}\n`)
  out = join(REPO_ROOT, TABLES.clients.file)
}
writeFileSync(out, formatClients(table, { intro, findings, table: TABLES.clients }))
const missing = CLIENTS.filter((c) => !table.some((r) => r.id === c.id)).map((c) => c.id)
process.stderr.write(`clients: wrote ${out} (${records.length} clients run, ${harnessErrors} harness errors, ${Math.round((performance.now() - started) / 1000)} s)${!partial && missing.length ? `; never run, not in the table: ${missing.join(', ')}` : ''}\n`)
process.exitCode = harnessErrors ? 1 : 0
