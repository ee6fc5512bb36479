/**
 * The features beyond tools inside the DeepSeek harness: hosts/dsh/beyond-host.mjs runs, under
 * Node 22 in a temp project where the pinned harness stack and the plugin's tarball are installed,
 * a harness root (dsh-tools' ToolRuntime) with the `mcpServers` service of
 * `@mcp-bridge/plugin/features`, against server-everything over stdio: resources, templates, text
 * and blob reads, a subscription's updates, a resource list change, prompts (and an argument
 * refused before anything is sent), completions, instructions and server logs; roots from the
 * entry, changed in place by the harness' own fiber.update(); and which capability-gated tools
 * the server offers where the harness has no question service (elicitation) and no model service
 * is configured for sampling (test/dsh/sampling.test.ts has that one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installDshProject } from '../support/dsh-project.ts'
import { childEnv, explain, expectExit, killGroup, run, running } from '../support/processes.ts'

interface Out {
  node: string
  error?: string
  offered: Record<string, boolean>
  resources: { count: number; hasDocument: boolean }
  templates: string[]
  readText: { uri: string; mimeType: string; chars: number }
  readBlob: { uri: string; base64: boolean }
  prompts: string[]
  prompt: string[]
  promptRefused: string
  completePrompt: { values: string[] }
  completeTemplate: { values: string[] }
  instructions: boolean
  update: { uri: string }
  serverLogs: number
  listChanged: { kind: string; count: number }
  rootsBefore: string
  rootsAfter: string
  statesAfterRootsUpdate: string[]
  provided: { seen: Array<{ serverName: string; mode: string; fields?: string[]; domain?: string }>; form: string; url: string }
  childrenAfterDispose: unknown[]
  errorLogs: string[]
  cordisCopies: string[]
}

const timings: Array<{ what: string; ms: number }> = []
let out: Out
let remove: (() => void) | undefined

beforeAll(async () => {
  const installed = await installDshProject(['plugin'])
  remove = installed.remove
  timings.push(...installed.timings)
  const host = await run(installed.node22, ['--import', './support/trace-modules.mjs', 'beyond-host.mjs'], { cwd: installed.project, env: childEnv(installed.node22, installed.project), timeoutMs: 240_000 })
  timings.push({ what: 'node22 beyond-host.mjs', ms: host.ms })
  const line = host.stdout.trim().split('\n').at(-1) ?? ''
  try {
    out = JSON.parse(line) as Out
  } catch {
    throw new Error(explain(host, 'beyond-host.mjs printed no JSON line'))
  }
  expect(out.error, explain(host, 'beyond-host.mjs failed')).toBeUndefined()
  expectExit(host)
  expect(out.node).toMatch(/^v22\./)
}, 600_000)

afterAll(() => {
  for (const pid of running) killGroup(pid)
  if (timings.length) console.log(`dsh beyond-tools timings:\n${timings.map(({ what, ms }) => `  ${String(ms).padStart(6)} ms  ${what}`).join('\n')}`)
  remove?.()
})

describe('the mcpServers service inside the harness, against server-everything', () => {
  it('lists resources and templates and reads a text and a blob', () => {
    expect(out.resources).toMatchObject({ hasDocument: true })
    expect(out.templates).toEqual(['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}'])
    expect(out.readText).toMatchObject({ uri: 'demo://resource/static/document/architecture.md', mimeType: 'text/markdown' })
    expect(out.readText.chars).toBeGreaterThan(0)
    expect(out.readBlob).toEqual({ uri: 'demo://resource/dynamic/blob/1', base64: true })
  })

  it("delivers a subscription's update and follows a resource list change", () => {
    expect(out.update).toEqual({ uri: 'demo://resource/static/document/architecture.md' })
    expect(out.listChanged).toEqual({ kind: 'resources', count: out.resources.count + 1 })
  })

  it('gets prompts, refusing an argument the prompt does not declare before sending it, and completes', () => {
    expect(out.prompts).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']))
    expect(out.prompt.join('\n')).toContain('Paris')
    expect(out.promptRefused).toMatch(/^INVALID_ARGS: .*town/)
    expect(out.completePrompt.values).toEqual(['Engineering'])
    expect(out.completeTemplate.values).toEqual(['1'])
  })

  it("offers the server's instructions and shows its log messages in the harness log", () => {
    expect(out.instructions).toBe(true)
    expect(out.serverLogs).toBeGreaterThan(0)
  })

  it('runs the service class of the cordis peer beside the harness\' own Cordis', () => {
    // The features entry imports Service from `cordis`: a second copy, which the harness' root accepts.
    expect(out.cordisCopies.map((url) => url.replace(/^.*\/node_modules\//, ''))).toEqual(['@deepseek-ai/cordis/lib/index.js', 'cordis/lib/index.js'])
  })

  it('leaves no process and no error behind', () => {
    expect(out.childrenAfterDispose).toEqual([])
    expect(out.errorLogs).toEqual([])
  })
})

describe('asks from the server inside the harness', () => {
  it('roots from the entry reach the server, and fiber.update() of the roots alone reaches it on the same connection', () => {
    expect(out.offered['get-roots-list']).toBe(true)
    expect(out.rootsBefore).toContain('1. Project A\n   URI: file:///srv/project-a')
    expect(out.rootsAfter).toContain('Current MCP Roots (1 total):\n\n1. Unnamed Root\n   URI: file:///srv/project-b')
    expect(out.statesAfterRootsUpdate).not.toContain('connecting')
  })

  it('no question service in the harness: no elicitation capability, so server-everything offers no elicitation tool; no sampling unless configured', () => {
    expect(out.offered).toMatchObject({ 'trigger-elicitation-request': false, 'trigger-url-elicitation': false, 'trigger-sampling-request': false })
  })

  it("a deployment's own mcpElicitation, provided on the harness root, answers server-everything's form and URL", () => {
    expect(out.provided.seen).toEqual([
      { serverName: 'everything', mode: 'form', fields: expect.arrayContaining(['name', 'check', 'email', 'legacyTitledEnum']) },
      { serverName: 'everything', mode: 'url', domain: 'example.com' },
    ])
    expect(out.provided.form).toMatch(/User provided the requested information![\s\S]*- Name: Ada\n- Agreed to terms: true/)
    expect(out.provided.url).toContain('User declined to open the URL')
  })
})
