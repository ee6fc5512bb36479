/**
 * Configuration written for the seed package (`@deepseek-ai/dsh-mcp-client` 0.1.0-rc.8) loads
 * unchanged: its README's example entries, and every field of its configuration table spelled out
 * with the seed's defaults, `reconnect.*` included. Our own fields are optional and default as
 * documented. The drop-in test (test/dsh/) loads the same kind of entry through the harness'
 * own cordis.yml loader.
 */
import { describe, expect, it } from 'vitest'
import { Config } from '../src/index.ts'
import { everythingStdio, startHost } from './support/host.ts'

function parse(input: unknown): Record<string, unknown> {
  const result = Config['~standard'].validate(input) as { value?: Record<string, unknown>; issues?: Array<{ message: string }> }
  if (result.issues) throw new Error(result.issues.map((issue) => issue.message).join('\n'))
  return result.value!
}

/**
 * The seed README's two entries, as the harness' loader hands them to the plugin: it evaluates
 * `!!js process.env.GITHUB_TOKEN` and `!!js '`Bearer ${process.env.MCP_TOKEN}`'` to strings.
 */
const seedExamples = {
  github: { serverName: 'github', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_exampleexampleexampleexample0000' } },
  web: { serverName: 'web', transport: 'streamable-http', url: 'http://localhost:3000/mcp', headers: { Authorization: 'Bearer example-token' } },
}

/** Every field of the seed's table (seed 002) with the default its schema applies. */
const seedDefaults = {
  common: { toolCallTimeoutMs: 60_000, failOnStartupError: false, reconnect: { enabled: true, initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 10 } },
  stdio: { args: [], env: {}, cwd: '' },
  http: { headers: {} },
}

/** Our fields beyond the seed's, with their documented defaults. */
const ourDefaults = {
  maxTotalTimeoutMs: 600_000,
  connectTimeoutMs: 30_000,
  listChanged: { debounceMs: 50, maxWaitMs: 1_000 },
  limits: { maxPages: 1_000, maxTools: 10_000, maxDescriptionChars: 8_192, maxSchemaChars: 262_144, maxResultTextChars: 100_000, maxResultBytes: 16 * 1024 * 1024 },
  tools: { include: [], exclude: [] },
  features: { resources: false, resourceTools: false, prompts: false, completions: false, instructions: false, logLevel: 'off', maxSubscriptions: 100, maxLogLinesPerMinute: 60 },
  roots: [],
  sampling: { enabled: false, maxTokens: 1_024, overMaxTokens: 'clamp', requestsPerMinute: 10, maxConcurrent: 1, maxPromptChars: 32_000, maxReplyChars: 32_000, models: [] },
  preferTaskCalls: false,
}

describe("the seed's configuration, accepted as is", () => {
  it("loads the seed README's example entries with their values, adding only our defaults", () => {
    const github = parse(seedExamples.github)
    expect(github).toEqual({ ...seedExamples.github, ...seedDefaults.common, cwd: undefined, ...ourDefaults, inheritEnv: [], killGraceMs: 2_000 })
    const web = parse(seedExamples.web)
    expect(web).toEqual({ ...seedExamples.web, ...seedDefaults.common, ...ourDefaults, sseFallback: false })
  })

  it.each([
    ['stdio', { ...seedExamples.github, ...seedDefaults.common, ...seedDefaults.stdio }],
    ['streamable-http', { ...seedExamples.web, ...seedDefaults.common, ...seedDefaults.http }],
  ])('loads every seed field spelled out with its default (%s), and keeps each value', (_transport, config) => {
    expect(parse(config)).toMatchObject(config)
  })

  it('applies the same defaults as the seed to every field of its table that is left out', () => {
    expect(parse({ serverName: 's', transport: 'stdio', command: 'node' })).toMatchObject({ ...seedDefaults.common, args: [], env: {} })
    expect(parse({ serverName: 's', transport: 'streamable-http', url: 'http://127.0.0.1:1/mcp' })).toMatchObject({ ...seedDefaults.common, ...seedDefaults.http })
  })

  it("accepts the seed's bounds: reconnect.maxAttempts up to Number.MAX_SAFE_INTEGER, delays up to the timer maximum", () => {
    const reconnect = { enabled: false, initialDelayMs: 1, maxDelayMs: 2_147_483_647, maxAttempts: Number.MAX_SAFE_INTEGER }
    expect(parse({ ...seedExamples.web, reconnect }).reconnect).toEqual(reconnect)
  })

  it("runs a stdio server with the seed's cwd default '' in the host's working directory", async () => {
    const host = await startHost()
    await host.load(everythingStdio('seedcwd', { cwd: '' }))
    expect(host.tools.list().map((tool) => tool.name)).toContain('mcp__seedcwd__echo')
    const result = await host.tools.execute('mcp__seedcwd__echo', { message: 'from the seed config' })
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: from the seed config' }])
  })
})
