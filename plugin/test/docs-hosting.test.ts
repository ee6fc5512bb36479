import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import * as z from 'zod'
import { Config } from '../src/index.ts'
import { createFileHost } from '@mcp-bridge/host/loader'

const root = fileURLToPath(new URL('../..', import.meta.url))
const hosting = fileURLToPath(new URL('../docs/HOSTING.md', import.meta.url))
/** Every example file the docs must show, so an example cannot silently drop out of the docs. */
const EXAMPLES = ['examples/host.ts', 'examples/host-yaml.ts', 'examples/cordis.yml', 'examples/cordis.http.yml', 'hosts/dsh/cordis.yml']

/** Code blocks preceded by `<!-- runnable: path -->`: the contract between the docs and examples/. */
function runnableBlocks(markdown: string): { path: string; code: string }[] {
  const markers = [...markdown.matchAll(/<!-- runnable: (\S+) -->\n/g)]
  return markers.map((marker) => {
    const rest = markdown.slice(marker.index + marker[0].length)
    const block = /^```[\w-]*\n([\s\S]*?)\n```\n/.exec(rest)
    if (!block) throw new Error(`the runnable marker for ${marker[1]} is not directly followed by a fenced code block`)
    return { path: marker[1]!, code: `${block[1]}\n` }
  })
}

/** Processes started by a run inherit its tag through the environment (the bridge keeps it). */
function taggedPids(tag: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`MCP_BRIDGE_TEST_RUN=${tag}`)
      } catch {
        return false
      }
    })
    .map(Number)
}

/** Runs a command from the repository root, as the docs tell readers to. */
function runFromRoot(args: string[]): Promise<{ code: number; stdout: string; stderr: string; tag: string }> {
  const tag = randomUUID()
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, env: { ...process.env, MCP_BRIDGE_TEST_RUN: tag } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr, tag })
    })
  })
}

describe('plugin/docs/HOSTING.md', () => {
  it('shows every example file verbatim, and nothing marked runnable that is not a file', async () => {
    const blocks = runnableBlocks(await readFile(hosting, 'utf8'))
    expect(blocks.map((block) => block.path).sort()).toEqual([...EXAMPLES].sort())
    for (const block of blocks) {
      const file = await readFile(`${root}/${block.path}`, 'utf8')
      expect(block.code, `the block for ${block.path} differs from the file: copy the file into the docs`).toBe(file)
    }
  })

  it('examples/host.ts runs: two servers, their tools listed, one call, clean disposal', async () => {
    const run = await runFromRoot(['--import', 'tsx', 'examples/host.ts'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^mcp__everything__echo$/m)
    expect(run.stdout).toMatch(/^mcp__fs__read_text_file$/m)
    expect(run.stdout).toContain("[ { type: 'text', text: 'Echo: hi' } ]")
    expect(taggedPids(run.tag)).toEqual([])
  })

  it('examples/host-yaml.ts runs against examples/cordis.yml and exits with its watcher closed', async () => {
    const run = await runFromRoot(['--import', 'tsx', 'examples/host-yaml.ts'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain("[ 'everything', 'fs' ]")
    expect(run.stdout).toContain('[FILE] README.txt')
    expect(taggedPids(run.tag)).toEqual([])
  })

  it('examples/cordis.yml works with the documented command from the repository root', async () => {
    const run = await runFromRoot(['host/bin/mcp-bridge.js', '--config', 'examples/cordis.yml', 'tools', '--json'])
    expect(run.code, run.stderr).toBe(0)
    const names = (JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name)
    expect(names.some((name) => name.startsWith('mcp__everything__'))).toBe(true)
    expect(names.some((name) => name.startsWith('mcp__fs__'))).toBe(true)
    expect(names.every((name) => /^mcp__(everything|fs)__/.test(name))).toBe(true)

    const call = await runFromRoot(['host/bin/mcp-bridge.js', '--config', 'examples/cordis.yml', 'call', 'mcp__fs__read_text_file', '{"path":"README.txt"}'])
    expect(call.code, call.stderr).toBe(0)
    expect(call.stdout).toContain('This directory is the only one the example filesystem server')
    expect([...taggedPids(run.tag), ...taggedPids(call.tag)]).toEqual([])
  })

  it('examples/cordis.http.yml sends the headers from the environment to a Streamable HTTP server', async () => {
    const seen: IncomingMessage['headers'][] = []
    const server = createServer((req, res) => {
      seen.push(req.headers)
      // Stateless: a fresh MCP server and transport per request.
      const mcp = new McpServer({ name: 'docs-web', version: '1.0.0' })
      mcp.registerTool('search', { description: 'Searches the web', inputSchema: { query: z.string() } }, async ({ query }) => ({
        content: [{ type: 'text', text: `results for ${query}` }],
      }))
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      res.on('close', () => void transport.close())
      void mcp.connect(transport).then(() => transport.handleRequest(req, res))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
    const host = await createFileHost({
      file: `${root}/examples/cordis.http.yml`,
      env: { MCP_WEB_URL: url, MCP_WEB_AUTHORIZATION: 'Bearer docs-token', USER: 'docs' },
      logging: false,
    })
    try {
      expect(host.loaded).toMatchObject({ ok: true, added: ['web'] })
      expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__web__search'])
      expect(await host.tools.execute('mcp__web__search', { query: 'cordis' })).toMatchObject({
        isError: false,
        content: [{ type: 'text', text: 'results for cordis' }],
      })
      expect(seen.length).toBeGreaterThan(0)
      for (const headers of seen) expect(headers).toMatchObject({ authorization: 'Bearer docs-token', 'x-client': 'mcp-bridge (docs)' })
    } finally {
      await host.dispose()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('examples/cordis.http.yml without its variable is an error naming the entry, field and variable', async () => {
    const host = await createFileHost({ file: `${root}/examples/cordis.http.yml`, env: {}, logging: false })
    try {
      expect(host.loaded).toMatchObject({ ok: false, added: [], held: ['web'] })
      expect(host.loaded.errors).toEqual([
        {
          entry: 'web',
          field: 'config.headers.Authorization',
          line: expect.any(Number),
          message: expect.stringMatching(/^environment variable MCP_WEB_AUTHORIZATION is not set/),
        },
      ])
    } finally {
      await host.dispose()
    }
  })
})

/**
 * The harness' own loader reads hosts/dsh/cordis.yml in test/dsh/drop-in.test.ts (Node 22). Here,
 * under any Node, the same file is read the way that loader reads it: YAML whose `!!js` scalars
 * are JavaScript expressions evaluated when the entry starts (with process.env in scope); every
 * entry's config must then pass the plugin's schema.
 */
describe("plugin/docs/HOSTING.md's dsh cordis.yml", () => {
  const JS_TAG = { tag: 'tag:yaml.org,2002:js', resolve: (source: string) => ({ __jsExpr: source }) }
  const evaluate = (value: unknown, env: Record<string, string>): unknown => {
    if (Array.isArray(value)) return value.map((item) => evaluate(item, env))
    if (typeof value !== 'object' || value === null) return value
    if ('__jsExpr' in value) return new Function('process', `return (${(value as { __jsExpr: string }).__jsExpr})`)({ env })
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, evaluate(item, env)]))
  }

  it('parses as a list of entries naming the plugin, whose configs are valid once their !!js secrets are evaluated', async () => {
    const entries = parseYaml(await readFile(`${root}/hosts/dsh/cordis.yml`, 'utf8'), { customTags: [JS_TAG] }) as Array<{ id: string; name: string; config: unknown }>
    expect(entries.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: 'mcp-everything', name: '@mcp-bridge/plugin' },
      { id: 'mcp-web', name: '@mcp-bridge/plugin' },
    ])
    const env = { EVERYTHING_TOKEN: 'everything-token', MCP_WEB_URL: 'https://mcp.example.com/mcp', MCP_TOKEN: 'web-token' }
    const configs = entries.map((entry) => {
      const result = Config['~standard'].validate(evaluate(entry.config, env)) as { value?: Record<string, unknown>; issues?: Array<{ message: string }> }
      expect(result.issues, `entry ${entry.id}`).toBeUndefined()
      return result.value!
    })
    expect(configs[0]).toMatchObject({ transport: 'stdio', env: { EVERYTHING_TOKEN: 'everything-token' }, inheritEnv: ['LANG', 'LC_*'] })
    expect(configs[1]).toMatchObject({ transport: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer web-token' } })
  })
})
