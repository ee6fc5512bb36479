// Type-checked (never run) by test/package/package.test.ts in the fresh project where the packed
// packages are installed, with `strict` under moduleResolution node16 and bundler. It imports every
// public entry and uses their types; each @ts-expect-error proves a type is real and not `any`
// (an unused directive is an error). It leaves cordis values alone: under node16 cordis 4.0.0-rc.10's
// own declarations do not resolve (consumer-cordis.ts, bundler only, covers that side).
import * as bridge from '@mcp-bridge/plugin'
import { BridgeError, publicToolName, type BridgeErrorCode, type StdioConfig, type ToolDefinition, type ToolResult, type ToolsService } from '@mcp-bridge/plugin'
import { AttachmentStore, ModelCatalog, ToolRegistry, attachConsoleLogger, createHost, type Host } from '@mcp-bridge/host'
import { createFileHost, createLoader, type FileHost, type LoaderIssue, type ReloadResult } from '@mcp-bridge/host/loader'
import { fixtureCommand, parseBehaviour, type Behaviour, type FixtureCommand } from '@mcp-bridge/fixtures-server'
import { EXIT, countStatuses, listScenarios, loadBaseline, runServerSuite, writeReports, type CheckStatus, type RunReport, type SuiteResult } from '@mcp-bridge/conformance'

export const pluginName: string = bridge.name
export const injected: string[] = bridge.inject
export const apply: typeof bridge.apply = bridge.apply
export const schema: typeof bridge.Config = bridge.Config
export const name: string = publicToolName('srv', 'admin.reset')
// @ts-expect-error: publicToolName takes two strings
publicToolName('srv', 42)
export const code: BridgeErrorCode = new BridgeError('bad config', 'INVALID_CONFIG').code
// @ts-expect-error: error codes are a closed union
export const badCode: BridgeErrorCode = 'NO_SUCH_CODE'

export const stdio: Pick<StdioConfig, 'serverName' | 'transport' | 'command' | 'args'> = {
  serverName: 'everything',
  transport: 'stdio',
  command: 'node',
  args: ['server.js'],
}

export const echoTool: ToolDefinition = {
  name: 'local_echo',
  description: 'Echoes its input',
  parameters: { type: 'object' },
  execute: async (args) => args,
}

export async function viaHost(): Promise<string[]> {
  const host: Host = await createHost({ logging: false })
  const service: ToolsService = host.tools
  const result: ToolResult = await service.execute('mcp__everything__echo', { message: 'hi' })
  // @ts-expect-error: an error result has no value
  if (result.isError) return [result.error.message, String(result.value)]
  await host.dispose()
  return host.tools.list().map((tool) => tool.name)
}

export async function viaFile(): Promise<LoaderIssue[]> {
  const host: FileHost = await createFileHost({ file: 'cordis.yml', watch: false })
  const reloaded: ReloadResult = await host.loader.reload()
  // @ts-expect-error: added is a list of entry ids
  const count: number = reloaded.added
  await host.dispose()
  return [...host.loaded.errors, ...reloaded.errors].slice(count)
}

export const hostPieces = [ToolRegistry, AttachmentStore, ModelCatalog, attachConsoleLogger, createLoader] as const

export const behaviour: Behaviour = parseBehaviour({ tools: [{ name: 'echo' }] }, 'inline')
export const fixture: FixtureCommand = fixtureCommand({ tools: [{ name: 'echo' }] }, { transport: 'stdio' })
// @ts-expect-error: the transport is stdio or http
fixtureCommand('names.yaml', { transport: 'carrier-pigeon' })

export async function judge(command: string, args: string[]): Promise<CheckStatus[]> {
  const suite: SuiteResult = await runServerSuite({ kind: 'stdio', command, args })
  const summary = countStatuses([suite])
  const report: Pick<RunReport, 'suites' | 'summary' | 'exitCode'> = { suites: [suite], summary, exitCode: summary.fail ? EXIT.failures : EXIT.pass }
  const scenarios = await listScenarios()
  const baseline = await loadBaseline('baseline.yaml')
  void baseline
  void writeReports
  // @ts-expect-error: a status is one of pass, fail, warn, skip, error
  const odd: CheckStatus = 'maybe'
  return [...report.suites.flatMap((s) => s.checks.map((check) => check.status)), ...scenarios.map(() => odd)]
}
