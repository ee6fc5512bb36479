/**
 * The leak suite (issue 14): secrets of 16 shapes planted in the host environment (under
 * secret-looking and innocent names), in headers, in URL user-info and query and in `env`; hostile
 * servers echo them in HTTP error bodies, 401 bodies, isError texts, JSON-RPC errors and stderr.
 * Every output channel is then searched, and the number of canaries found must be 0.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureCommand, readWireFile, startHttpFixture, type BehaviourInput } from '@mcp-bridge/fixtures-server'
import * as bridge from '@mcp-bridge/plugin'
import { attachConsoleLogger, ToolRegistry } from '@mcp-bridge/host'
import { Context } from 'cordis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { bridgeAdapter } from '../src/client/bridge-adapter.ts'
import { runScenario } from '../src/client/run-scenario.ts'
import { ScenarioSchema } from '../src/client/scenario.ts'
import type { CheckResult, SuiteResult } from '../src/model.ts'
import { formatGithubAnnotations } from '../src/report/annotations.ts'
import { assembleReport } from '../src/report/assemble.ts'
import { formatMarkdownSummary } from '../src/report/markdown.ts'
import { formatSummary, progressLine } from '../src/report/summary.ts'
import { REPORT_FILES, writeReports } from '../src/report/write.ts'
import { runServerSuite } from '../src/server/run.ts'
import { canariesIn, ENV_VALUE, HEADER, hostEnvironment, leakLines, SHAPED, URL_PASSWORD, URL_QUERY } from './support/canaries.ts'

const dir = mkdtempSync(join(tmpdir(), 'canary-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every channel searched, with what was found in it: the suite's verdict is that this stays empty. */
const leaks: string[] = []
/** Channels searched, so that a test that searched nothing cannot pass. */
const searched: string[] = []
function search(channel: string, text: string, exclude: string[] = []): void {
  searched.push(channel)
  for (const id of canariesIn(text)) if (!exclude.includes(id)) leaks.push(`${channel}: ${id}`)
}

const planted = hostEnvironment()
beforeAll(() => void Object.assign(process.env, planted))
afterAll(() => {
  for (const name of Object.keys(planted)) delete process.env[name]
})

/**
 * What hostile servers say. A stdio server also echoes the `env` value it was given, bare: only its
 * configuration can tell the bridge that this word is a secret. (An HTTP server was given none.)
 */
const stdioLeak = leakLines([`explicit env: SERVICE_TOKEN=${ENV_VALUE.value} and bare ${ENV_VALUE.value}`])
const httpLeak = leakLines()
const httpLeakText = httpLeak.join('\n')

/** A hostile server: each tool leaks through another path. */
function hostile(leak: string[], extra: Partial<BehaviourInput> = {}): BehaviourInput {
  const leakText = leak.join('\n')
  return {
    stderr: leak,
    tools: [
      { name: 'leak_error', result: { isError: true, content: [{ type: 'text', text: leakText }] } },
      { name: 'leak_rpc', error: { code: -32603, message: leakText } },
      { name: 'leak_500' },
      { name: 'env_names', result: { content: [{ type: 'env' }] } },
      { name: 'leak_stderr_and_die', stderr: leak, exit: 3 },
    ],
    ...extra,
  }
}

/** A real host with the reference registry, every log line at every level captured. */
async function host() {
  const ctx = new Context()
  const logs: string[] = []
  attachConsoleLogger(ctx, { level: 'debug', write: (line) => logs.push(line) })
  const registry = ctx.plugin(ToolRegistry)
  await registry
  return { ctx, logs, dispose: () => registry.dispose() }
}
type Host = Awaited<ReturnType<typeof host>>
let current: Host | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

async function callAll(h: Host, serverName: string, tools: string[]): Promise<string[]> {
  const outcomes: string[] = []
  for (const tool of tools) outcomes.push(JSON.stringify(await h.ctx.tools.execute(bridge.publicToolName(serverName, tool), {})))
  return outcomes
}

describe('no canary reaches a model, a log, a connection state, a child or a report', () => {
  it('the plugin over stdio: child environment, model-visible content and errors, logs, state', async () => {
    const envFile = join(dir, 'child-env.json')
    const wireFile = join(dir, 'stdio-wire.jsonl')
    const h = (current = await host())
    const server = fixtureCommand(hostile(stdioLeak, { envDump: envFile }))
    // Every state the instance announces (the plugin's public mcp/state event), reasons included.
    const states: string[] = []
    h.ctx.on('mcp/state', (event) => void states.push(JSON.stringify(event.state)))
    const fiber = h.ctx.plugin(bridge, {
      transport: 'stdio',
      serverName: 'canary',
      ...server,
      env: { SERVICE_TOKEN: ENV_VALUE.value, MCP_FIXTURE_WIRE: wireFile },
      reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 1 },
    })
    await fiber
    const outcomes = await callAll(h, 'canary', ['leak_error', 'leak_rpc', 'env_names', 'leak_stderr_and_die'])
    // The child died (leak_stderr_and_die): the state names why, and it comes back.
    await expect.poll(() => states.at(-1)).toMatch(/"kind":"connected"/)
    expect(states.some((state) => state.includes('"kind":"reconnecting"'))).toBe(true)

    // The child got only what was configured for it: `env` on purpose, nothing from the host.
    search('child environment', readFileSync(envFile, 'utf8'), [ENV_VALUE.id])
    outcomes.forEach((outcome, i) => search(`model-visible result ${i + 1}`, outcome))
    search('logs (every level)', h.logs.join('\n'))
    search('connection states', states.join('\n'))

    // The hostile server did say everything: its own wire log holds every shaped canary and the env value.
    expect(canariesIn(readWireFile(wireFile).map((entry) => JSON.stringify(entry)).join('\n')).sort()).toEqual([...SHAPED, ENV_VALUE].map((c) => c.id).sort())
    expect(outcomes[0]).toMatch(/TOOL_ERROR.*<redacted>/)
    expect(outcomes[3]).toMatch(/server stderr: .*<redacted>/)
    expect(h.logs.filter((line) => line.startsWith('[debug]') && line.includes('stderr: leak')).length).toBeGreaterThanOrEqual(SHAPED.length)
  })

  it('the plugin over HTTP: error bodies that echo headers, 401 bodies, URL credentials and query', async () => {
    const leaky = await startHttpFixture(hostile(httpLeak, { http: { faults: [{ tool: 'leak_500', action: 'fail', status: 500, echoHeaders: true, body: httpLeakText }] } }), {
      memoryWire: true,
    })
    const refusing = await startHttpFixture(hostile(httpLeak, { http: { auth: { header: 'authorization', value: 'Bearer the-right-one', echo: true } } }))
    try {
      const h = (current = await host())
      const states: string[] = []
      h.ctx.on('mcp/state', (event) => void states.push(JSON.stringify(event.state)))
      const withCredentials = (url: string) => {
        const parsed = new URL(url)
        parsed.username = 'kit'
        parsed.password = URL_PASSWORD.value
        parsed.searchParams.set('access_token', URL_QUERY.value)
        return parsed.href
      }
      const config = { transport: 'streamable-http', headers: { authorization: HEADER.value }, reconnect: { enabled: false } }
      const fiber = h.ctx.plugin(bridge, { ...config, serverName: 'leaky', url: withCredentials(leaky.url) })
      await fiber
      const outcomes = await callAll(h, 'leaky', ['leak_error', 'leak_rpc', 'leak_500'])
      const refused = h.ctx.plugin(bridge, { ...config, serverName: 'refused', url: withCredentials(refusing.url) })
      await refused

      outcomes.forEach((outcome, i) => search(`model-visible result ${i + 1} (HTTP)`, outcome))
      search('logs (every level, HTTP)', h.logs.join('\n'))
      search('connection states (HTTP)', states.join('\n'))

      // The echo happened: the 500 quoted our headers, redacted.
      expect(outcomes[2]).toMatch(/HTTP 500.*request headers.*authorization[^,]*<redacted>/)
      const refusal = states.find((state) => state.includes('"kind":"stopped"'))
      expect(refusal).toMatch(/"kind":"stopped".*HTTP 401/)
      // The refusal of the server/discover probe names the status; the SDK's negotiation error
      // quotes none of the echoing 401 body, so the header it echoed appears nowhere.
      expect(refusal).not.toContain(HEADER.value)
      expect(JSON.stringify(leaky.wire!.entries)).toContain(SHAPED[4]!.value)
    } finally {
      await leaky.close()
      await refusing.close()
    }
  })

  it('the kit: server checks, console lines and every report', async () => {
    const leaky = await startHttpFixture(hostile(httpLeak, { http: { faults: [{ tool: 'leak_500', action: 'fail', status: 500, echoHeaders: true, body: httpLeakText }] } }))
    try {
      const url = new URL(leaky.url)
      url.username = 'kit'
      url.password = URL_PASSWORD.value
      url.searchParams.set('access_token', URL_QUERY.value)
      const calls = ['leak_error', 'leak_rpc', 'leak_500'].map((name) => ({ name, arguments: {} }))
      const lines: string[] = []
      const onCheck = (check: CheckResult) => lines.push(progressLine(check))
      const suites: SuiteResult[] = [
        await runServerSuite({ kind: 'http', url: url.href, headers: { authorization: HEADER.value } }, { calls, onCheck, requestTimeoutMs: 5_000 }),
        await runServerSuite(
          { kind: 'stdio', ...fixtureCommand(hostile(stdioLeak)), env: { SERVICE_TOKEN: ENV_VALUE.value } },
          { calls: [...calls.slice(0, 2), { name: 'leak_stderr_and_die', arguments: {} }], onCheck, requestTimeoutMs: 5_000, exitGraceMs: 2_000 },
        ),
      ]
      await searchReports('server mode', suites, lines)
      expect(JSON.stringify(suites)).toContain('<redacted>')
    } finally {
      await leaky.close()
    }
  })

  it('the kit: client scenarios, their wire excerpts, reports and written snapshots', async () => {
    const scenario = (id: string, transport: 'stdio' | 'http', client: Record<string, unknown>) =>
      ScenarioSchema.parse({
        id,
        title: 'hostile server',
        spec: [{ ref: 'issue 14' }],
        transports: [transport],
        server: hostile(transport === 'stdio' ? stdioLeak : httpLeak),
        client,
        hostEnv: hostEnvironment(),
        steps: ['leak_error', 'leak_rpc', 'env_names'].map((tool) => ({ call: { tool, expect: { text: 'never matches: the failure message quotes the text' } } })),
        expect: { logs: ['never matches either'] },
      })
    const runs = [
      { loaded: { file: join(dir, 'canary-stdio.yaml'), scenario: scenario('canary-stdio', 'stdio', { env: { SERVICE_TOKEN: ENV_VALUE.value } }) }, transport: 'stdio' as const },
      { loaded: { file: join(dir, 'canary-http.yaml'), scenario: scenario('canary-http', 'http', { headers: { authorization: HEADER.value } }) }, transport: 'http' as const },
    ]
    const suites: SuiteResult[] = []
    for (const { loaded, transport } of runs) suites.push(await runScenario(loaded, transport, bridgeAdapter, { updateSnapshots: true }))
    for (const id of ['canary-stdio.stdio', 'canary-http.http']) search(`snapshot ${id}.snap`, readFileSync(join(dir, `${id}.snap`), 'utf8'))
    await searchReports('client mode', suites, [])
    // The failing expectations quote what the model saw, so the reports did carry the echo.
    expect(JSON.stringify(suites)).toMatch(/text does not match.*<redacted>/)
  })

  it('found 0 canaries in every channel', () => {
    expect(searched.length).toBeGreaterThanOrEqual(20)
    expect(leaks).toEqual([])
  })
})

/** results.json, junit.xml, report.html, the console summary, the Markdown summary and the CI annotations. */
async function searchReports(mode: string, suites: SuiteResult[], progress: string[]): Promise<void> {
  const report = assembleReport({ suites, baseline: [], tool: { name: 'mcp-conformance', version: 'test' }, startedAt: new Date(0).toISOString(), durationMs: 1 })
  const out = join(dir, mode.replace(/\W+/g, '-'))
  await writeReports(report, out)
  for (const file of Object.values(REPORT_FILES)) search(`${mode} ${file}`, readFileSync(join(out, file), 'utf8'))
  search(`${mode} console`, [...progress, formatSummary(report)].join('\n'))
  search(`${mode} Markdown summary`, formatMarkdownSummary(report))
  search(`${mode} annotations`, formatGithubAnnotations(report))
}
