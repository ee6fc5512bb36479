/**
 * `npm run clients [-- <client>...]`: every client scenario against every client below, over stdio
 * and Streamable HTTP, then conformance/docs/CLIENTS.md (conformance/src/client/table.ts). The real clients are
 * pinned in clients/package.json (installed by the npm script, never by the main install) and run
 * under the pinned Node 22 of scripts/node22.mjs, which some of them require. Exit 1 on a harness
 * error (a verdict the table could not give), else 0: the table is the output, failures included.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bridgeAdapter } from '../conformance/src/client/bridge-adapter.ts'
import { driverAdapter } from '../conformance/src/client/driver/adapter.ts'
import { runClientScenarios } from '../conformance/src/client/index.ts'
import { cellOf, formatClientsTable, type ClientColumn } from '../conformance/src/client/table.ts'
// @ts-expect-error: a plain ES module without declarations
import { ensureNode22 } from '../scripts/node22.mjs'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const pins = (JSON.parse(readFileSync(here('./package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies
const node22 = (ensureNode22 as () => string)()

const CLIENTS = [
  { id: 'mcp-bridge', name: 'mcp-bridge (ours)', about: 'this repository\'s plugin, in-process (the built-in adapter), judged as a bridge: every expectation applies', adapter: () => bridgeAdapter },
  { id: 'sdk', name: '@modelcontextprotocol/sdk', pkg: '@modelcontextprotocol/sdk', driver: `${process.execPath} ${here('../conformance/drivers/sdk-client.mjs')}`, about: 'raw `Client` with `listChanged.tools` (debounced re-list, pages followed, a repeated cursor ends discovery), `callTool` with `timeout` and `signal`; StdioClientTransport\'s default environment' },
  { id: 'ai-sdk', name: '@ai-sdk/mcp', pkg: '@ai-sdk/mcp', driver: `${node22} ${here('./drivers/ai-sdk.mjs')}`, about: '`createMCPClient` (HTTP transport config, or `Experimental_StdioMCPTransport`), `tools()` and each tool\'s `execute` with `abortSignal`; no per-call timeout setting and no list_changed: its defaults' },
  { id: 'langchain', name: '@langchain/mcp-adapters', pkg: '@langchain/mcp-adapters', driver: `${node22} ${here('./drivers/langchain.mjs')}`, about: '`MultiServerMCPClient` (`useStandardContentBlocks`, `defaultToolTimeout`), `getTools()`, `tool.invoke(args, { signal })`; no list_changed' },
  { id: 'openai-agents', name: '@openai/agents', pkg: '@openai/agents', driver: `${node22} ${here('./drivers/openai-agents.mjs')}`, about: '`MCPServerStdio` / `MCPServerStreamableHttp` with `timeout`, `listTools()`, `callTool(name, args, undefined, { signal })`; no list_changed' },
  { id: 'mcp-use', name: 'mcp-use', pkg: 'mcp-use', driver: `${node22} ${here('./drivers/mcp-use.mjs')}`, about: '`MCPClient` with one server, `createSession()`, `session.tools`, `session.callTool(name, args, { timeout, signal })`, `closeAllSessions()`; follows list_changed by itself (declared `listChanged`); no connect timeout setting: its defaults (HTTP 10 s, stdio the SDK\'s 60 s). 1.34.6 is the newest release that ships a client (2.x leaves it to `@mcp-use/client`, which is not on the registry)' },
  { id: 'dsh-seed', name: 'dsh-mcp-client (seed)', pkg: '@deepseek-ai/dsh-mcp-client', driver: `${node22} ${here('./drivers/dsh-seed.mjs')}`, about: 'the seed plugin in its own host: `@deepseek-ai/cordis` 4.0.4 with dsh-system-prompt and dsh-tools\' `ToolRuntime` (0.1.0-rc.8); `ToolRuntime.schemas()` for the tools, `ToolRuntime.execute()` with the signal for a call, plugin disposal to close; its README\'s configuration table: `toolCallTimeoutMs` from the scenario, `reconnect` and `failOnStartupError` at their defaults, no connect timeout (its README: inherited from the SDK); re-syncs on list_changed (declared `listChanged`)' },
  { id: 'mastra', name: '@mastra/mcp', pkg: '@mastra/mcp', driver: `${node22} ${here('./drivers/mastra.mjs')}`, about: '`MCPClient` with `timeout`, `listTools()` (names `fixture_<tool>`), `tool.execute(args, { abortSignal })`, `disconnect()`; no list_changed' },
]

// `npm run clients -- [client id...] [--scenario id]... [--transport stdio|http]`: a partial run
// (any filter) writes its table to a temporary file, never over conformance/docs/CLIENTS.md.
const argv = process.argv.slice(2)
const wanted: string[] = []
const scenarioIds: string[] = []
let transports: Array<'stdio' | 'http'> = ['stdio', 'http']
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--scenario') scenarioIds.push(argv[++i]!)
  else if (argv[i] === '--transport') transports = [argv[++i] as 'stdio' | 'http']
  else wanted.push(argv[i]!)
}
const partial = argv.length > 0
const started = performance.now()
const columns: ClientColumn[] = []
let harnessErrors = 0
for (const client of CLIENTS.filter((c) => !wanted.length || wanted.includes(c.id))) {
  const version = client.pkg ? ` ${pins[client.pkg] ?? '(unpinned)'}` : ''
  process.stderr.write(`clients: ${client.name}${version}\n`)
  const adapter = 'driver' in client ? driverAdapter(client.driver!, client.name) : client.adapter!()
  const suites = await runClientScenarios({
    transports,
    scenarioIds,
    updateSnapshots: false,
    adapter,
    onProgress: (line) => process.stderr.write(`  ${line}\n`),
  })
  harnessErrors += suites.filter((s) => cellOf(s) === 'error').length
  const driverNote = 'driver' in client ? ` Driver: \`${client.driver!.split(' ').pop()!.replace(/^.*\/(clients|conformance)\//, '$1/')}\`.` : ''
  columns.push({ name: client.name, about: `\`${client.pkg ?? 'mcp-bridge'}${version ? `@${version.trim()}` : ''}\`: ${client.about}.${driverNote}`, suites })
}

const intro = `# MCP clients against hostile servers

Generated by \`npm run clients\` (clients/run.ts): every client scenario of the conformance kit
(scenarios/, conformance/FORMAT.md) against each client below, over stdio and Streamable HTTP. Our
plugin is judged as a bridge, on every expectation; every other client is driven through the
driver protocol and judged only on what the MCP specification asks of every client. What the spec
leaves to the client is not applicable (listed at the end), and a SHOULD breached is a warning.`
const findings = readFileSync(here('./FINDINGS.md'), 'utf8')
const out = partial ? join(tmpdir(), 'CLIENTS.partial.md') : here('../conformance/docs/CLIENTS.md')
writeFileSync(out, `${formatClientsTable(columns, intro).trimEnd()}\n\n${findings.trimEnd()}\n`)
process.stderr.write(`clients: wrote ${out} (${columns.length} clients, ${harnessErrors} harness errors, ${Math.round((performance.now() - started) / 1000)} s)\n`)
process.exitCode = harnessErrors ? 1 : 0
