/**
 * The drop-in test: the plugin inside the seed's own host. The DeepSeek harness stack pinned in
 * hosts/dsh/package.json (its own lockfile: the harness' version ranges drift to releases that do
 * not fit together) is installed with `npm ci` into a temp project together with the plugin's
 * packed tarball, and run with plain Node 22 (scripts/node22.mjs; the harness needs 22):
 *
 * - hosts/dsh/host.mjs: a programmatic harness root (@deepseek-ai/cordis, dsh-system-prompt,
 *   dsh-tools' ToolRuntime, dsh-attachment, dsh-llm) loads the plugin against server-everything
 *   over stdio, lists the tools with ToolRuntime.schemas(), calls echo and an image tool with
 *   ToolRuntime.execute, disposes, and then does the same with the seed package (the roll-back);
 * - hosts/dsh/yaml-host.mjs: the harness' own cordis.yml loader starts hosts/dsh/cordis.yml (the
 *   entry file plugin/docs/HOSTING.md shows), `!!js process.env.X` secrets included.
 *
 * Timings of every step are printed at the end.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOST_DIR, installDshProject } from '../support/dsh-project.ts'
import { childEnv, explain, expectExit, killGroup, REPO, run, running, type RunResult } from '../support/processes.ts'
const CORPUS = join(REPO, 'plugin/test/fixtures/schema-subset.json')
const SECRET_LOOKING = 'AWS_SECRET_ACCESS_KEY'

interface Block {
  type: string
  text?: string
  attachment?: { attachmentId: string; mediaType: string; bytes: number; width: number; height: number }
}
interface Result {
  isError: boolean
  content: Block[]
  value?: { content: unknown[]; structuredContent?: unknown }
  error?: { message: string; info?: { code: string } }
}
interface Schema {
  name: string
  description: string
  parameters: Record<string, unknown>
}
interface HostRun {
  loadMs: number
  schemas: Schema[]
  structuredOutputSchema?: Record<string, unknown>
  childrenWhileRunning: number
  echo: Result
  echoWithoutArguments: Result
  imageForVision: Result
  imageForRequestedVision: Result
  imageForChat: Result
  imageWithoutAgent: Result
  storedImages: number
  afterDispose: string[]
  childrenAfterDispose: Array<{ pid: number; command: string }>
  errorLogs: string[]
}

const state: { project: string; node22: string; remove?: () => void } = { project: '', node22: '' }
const timings: Array<{ what: string; ms: number }> = []
const timed = (what: string, result: RunResult) => {
  timings.push({ what, ms: result.ms })
  return result
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T
}

/** The last stdout line of a host script, parsed; a failure message with its output otherwise. */
function output<T>(result: RunResult): T & { node: string; error?: string } {
  const line = result.stdout.trim().split('\n').at(-1) ?? ''
  let parsed: T & { node: string; error?: string }
  try {
    parsed = JSON.parse(line) as typeof parsed
  } catch {
    throw new Error(explain(result, 'the host script printed no JSON line'))
  }
  expect(parsed.error, explain(result, 'the host script failed')).toBeUndefined()
  expectExit(result)
  expect(parsed.node, 'the host ran under Node 22').toMatch(/^v22\./)
  return parsed
}

const texts = (result: Result) => result.content.map((block) => block.text ?? `[${block.type}]`).join('\n')

beforeAll(async () => {
  const installed = await installDshProject(['plugin'])
  Object.assign(state, { project: installed.project, node22: installed.node22, remove: installed.remove })
  timings.push(...installed.timings)
})

afterAll(() => {
  for (const pid of running) killGroup(pid)
  if (timings.length) console.log(`dsh drop-in timings:\n${timings.map(({ what, ms }) => `  ${String(ms).padStart(6)} ms  ${what}`).join('\n')}`)
  state.remove?.()
})

describe('hosts/dsh: the pinned harness stack', () => {
  it('pins every package exactly, and the lockfile and the install agree with the pins', () => {
    const manifest = readJson<{ dependencies: Record<string, string> }>(join(HOST_DIR, 'package.json'))
    const lock = readJson<{ packages: Record<string, { version: string }> }>(join(HOST_DIR, 'package-lock.json'))
    for (const [name, version] of Object.entries(manifest.dependencies)) {
      expect(version, `${name} must be pinned exactly`).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/)
      expect(lock.packages[`node_modules/${name}`]?.version, `package-lock.json vs package.json for ${name}`).toBe(version)
      expect(readJson<{ version: string }>(join(state.project, 'node_modules', name, 'package.json')).version, `installed ${name}`).toBe(version)
    }
    expect(manifest.dependencies['@deepseek-ai/cordis']).toBe('4.0.4')
  })
})

describe('the plugin hosted programmatically by dsh-tools (host.mjs), then the seed in its place', () => {
  let out: { bridge: HostRun; seed: HostRun; subsetVerdicts: Array<{ note: string; supported: boolean; reason?: string }>; cordisCopies: string[]; traced: boolean }

  beforeAll(async () => {
    const host = timed(
      'node22 host.mjs (plugin, then the seed)',
      await run(state.node22, ['--import', './support/trace-modules.mjs', 'host.mjs', CORPUS], { cwd: state.project, env: childEnv(state.node22, state.project), timeoutMs: 120_000 }),
    )
    out = output(host)
    timings.push({ what: '  of which: plugin activation (connect + discovery + registration)', ms: out.bridge.loadMs })
  })

  it('registers every tool the seed does through ToolRuntime, with the same names and schemas', () => {
    const names = out.bridge.schemas.map((tool) => tool.name)
    expect(names).toContain('mcp__everything__echo')
    // The task-only tool too: the bridge calls it as a task, where the seed's plain call can only fail.
    expect(names).toContain('mcp__everything__simulate-research-query')
    expect(names.every((name) => /^mcp__everything__[A-Za-z0-9_-]+$/.test(name))).toBe(true)
    expect(out.bridge.schemas).toEqual(out.seed.schemas)
  })

  it("declares a server's outputSchema to ToolRuntime when it fits the subset (the seed's $schema made it {})", () => {
    expect(out.bridge.structuredOutputSchema).toMatchObject({ type: 'object', properties: { temperature: { type: 'number' } } })
    expect(out.bridge.structuredOutputSchema).not.toHaveProperty('$schema')
    expect(out.seed.structuredOutputSchema).toEqual({})
  })

  it('executes echo through ToolRuntime.execute({ callId, name, arguments, signal })', () => {
    expect(out.bridge.echo).toEqual({
      isError: false,
      content: [{ type: 'text', text: 'Echo: hello from dsh (bridge)' }],
      value: { content: [{ type: 'text', text: 'Echo: hello from dsh (bridge)' }] },
    })
    expect(out.bridge.echoWithoutArguments.isError).toBe(true)
    expect(texts(out.bridge.echoWithoutArguments)).toMatch(/^Error: .*message/)
  })

  it("admits an image for the calling agent's model through dsh-attachment and dsh-llm, and says why not otherwise", () => {
    for (const result of [out.bridge.imageForVision, out.bridge.imageForRequestedVision]) {
      expect(result.isError).toBe(false)
      expect(result.content.map((block) => block.type)).toEqual(['text', 'image', 'text'])
      expect(result.content[1]!.attachment).toMatchObject({ mediaType: 'image/png', width: 20, height: 20 })
      expect(result.content[1]!.attachment!.bytes).toBeGreaterThan(100)
    }
    expect(out.bridge.storedImages).toBe(2)
    expect(texts(out.bridge.imageForChat)).toContain('[image unavailable: image/png; model "dsh-host/chat" does not declare image input;')
    expect(texts(out.bridge.imageWithoutAgent)).toContain('[image unavailable: image/png; the calling model route is unknown;')
    // The canonical value keeps the raw image for programmatic callers either way.
    expect(JSON.stringify(out.bridge.imageForChat.value)).toContain('"type":"image"')
  })

  it('disposes cleanly: no tool left in ToolRuntime, no server process left, no error logged', () => {
    expect(out.bridge.childrenWhileRunning, 'one server-everything child while running').toBe(1)
    expect(out.bridge.afterDispose).toEqual([])
    expect(out.bridge.childrenAfterDispose).toEqual([])
    expect(out.bridge.errorLogs).toEqual([])
  })

  it('rolls back: the seed package runs in the same host with the same entry', () => {
    expect(out.seed.echo.content).toEqual([{ type: 'text', text: 'Echo: hello from dsh (seed)' }])
    expect(out.seed.imageForVision.content.map((block) => block.type)).toEqual(['text', 'image', 'text'])
    expect(out.seed.afterDispose).toEqual([])
  })

  it('runs on the harness Cordis alone: no other copy of cordis is loaded', () => {
    expect(out.traced, 'the module trace hook did not run').toBe(true)
    expect(out.cordisCopies.map((url) => url.slice(url.indexOf('/node_modules/')))).toEqual(['/node_modules/@deepseek-ai/cordis/lib/index.js'])
  })

  it("agrees with dsh-tools' own assertSupportedJsonSchema on every case of the subset corpus", () => {
    const corpus = readJson<{ cases: Array<{ note: string; supported: boolean }> }>(CORPUS)
    expect(out.subsetVerdicts.map(({ note, supported }) => ({ note, supported }))).toEqual(corpus.cases.map(({ note, supported }) => ({ note, supported })))
  })
})

describe("hosts/dsh/cordis.yml through the harness' own loader (yaml-host.mjs)", () => {
  it('starts both entries with their !!js secrets, calls them, passes only allowlisted variables, and stops cleanly', async () => {
    const env = { ...childEnv(state.node22, state.project), EVERYTHING_TOKEN: 'everything-token-1234', MCP_TOKEN: 'web-token-5678', [SECRET_LOOKING]: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', LANG: 'C.UTF-8' }
    const yaml = timed('node22 yaml-host.mjs (cordis.yml via Loader + Include)', await run(state.node22, ['yaml-host.mjs'], { cwd: state.project, env, timeoutMs: 120_000 }))
    const out = output<{
      tools: string[]
      echo: Result
      search: Result
      childEnv: Record<string, string>
      authorizations: string[]
      afterDispose: string[]
      childrenWhileRunning: number
      childrenAfterDispose: unknown[]
      errorLogs: string[]
    }>(yaml)
    expect(out.tools).toContain('mcp__everything__echo')
    expect(out.tools).toContain('mcp__web__search')
    expect(out.echo.content).toEqual([{ type: 'text', text: 'Echo: hello from cordis.yml' }])
    expect(out.search.content).toEqual([{ type: 'text', text: 'results for cordis' }])
    expect(out.authorizations, 'the !!js template header reached the HTTP server').toEqual(['Bearer web-token-5678'])
    expect(out.childEnv.EVERYTHING_TOKEN, 'env: !!js process.env.EVERYTHING_TOKEN').toBe('everything-token-1234')
    expect(out.childEnv.LANG, 'inheritEnv: [LANG]').toBe('C.UTF-8')
    expect(out.childEnv, 'a host variable nobody named stays out of the child').not.toHaveProperty(SECRET_LOOKING)
    expect(out.childrenWhileRunning).toBe(1)
    expect(out.afterDispose).toEqual([])
    expect(out.childrenAfterDispose).toEqual([])
    expect(out.errorLogs).toEqual([])
  })
})
