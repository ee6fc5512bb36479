// The drop-in check, programmatic: the DeepSeek harness host stack (pinned in package.json) hosts
// @mcp-bridge/plugin against @modelcontextprotocol/server-everything over stdio, exactly as it
// hosts the seed package @deepseek-ai/dsh-mcp-client, which runs second in a fresh root with the
// same entry (that is the roll-back). Prints one JSON line of observations; test/dsh/drop-in.test.ts
// judges them. Run from a project where this directory's package.json is installed, with the
// plugin's tarball: `node --import ./support/trace-modules.mjs host.mjs [schema-corpus.json]`.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { assertSupportedJsonSchema } from '@deepseek-ai/dsh-tools'
import * as bridge from '@mcp-bridge/plugin'
import * as seed from '@deepseek-ai/dsh-mcp-client'
import { descendants } from './support/children.mjs'
import { agentFor, createDshRoot } from './support/services.mjs'

const require = createRequire(import.meta.url)
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
const entry = { serverName: 'everything', transport: 'stdio', command: process.execPath, args: [everything, 'stdio'] }
const out = { node: process.version }
let calls = 0

/** ToolRuntime.execute as the harness' agent loop calls it. */
function execute(ctx, name, args, agent) {
  return ctx.tools.execute({ callId: `call-${++calls}`, name, arguments: args, signal: new AbortController().signal, ...(agent ? { agent } : {}) })
}

const servers = () => descendants().filter((child) => child.command.includes(everything))
const schemasOf = (ctx) => ctx.tools.schemas().filter((tool) => tool.name.startsWith('mcp__')).sort((a, b) => (a.name < b.name ? -1 : 1))

async function run(plugin, label, config = entry) {
  const root = await createDshRoot()
  const started = performance.now()
  const fiber = root.ctx.plugin(plugin, config)
  await fiber
  const result = { loadMs: Math.round(performance.now() - started), schemas: schemasOf(root.ctx), childrenWhileRunning: servers().length }
  const structured = root.ctx.tools.get('mcp__everything__get-structured-content')
  result.structuredOutputSchema = structured?.output?.schema?.properties?.structuredContent
  result.echo = await execute(root.ctx, 'mcp__everything__echo', { message: `hello from dsh (${label})` })
  result.echoWithoutArguments = await execute(root.ctx, 'mcp__everything__echo', {})
  result.imageForVision = await execute(root.ctx, 'mcp__everything__get-tiny-image', {}, agentFor('vision'))
  // The route of the agent's latest request wins over its options.
  result.imageForRequestedVision = await execute(root.ctx, 'mcp__everything__get-tiny-image', {}, agentFor('chat', { requested: 'vision' }))
  result.imageForChat = await execute(root.ctx, 'mcp__everything__get-tiny-image', {}, agentFor('chat'))
  result.imageWithoutAgent = await execute(root.ctx, 'mcp__everything__get-tiny-image', {})
  result.storedImages = root.ctx.attachments.images.size
  await fiber.dispose()
  result.afterDispose = schemasOf(root.ctx).map((tool) => tool.name)
  await root.dispose()
  // The bridge stops its child on dispose; the seed leaves that to the SDK's close. Give either a moment.
  for (let i = 0; i < 50 && servers().length; i++) await new Promise((resolve) => setTimeout(resolve, 100))
  result.childrenAfterDispose = servers()
  result.errorLogs = root.logs.filter((line) => line.startsWith('[error]'))
  return result
}

try {
  out.bridge = await run(bridge, 'bridge')
  // Rolling back leaves the entry as it is: the seed ignores fields it does not know.
  out.seed = await run(seed, 'seed', { ...entry, inheritEnv: ['LANG'], connectTimeoutMs: 30_000, limits: { maxTools: 100 } })
  const corpusPath = process.argv[2]
  if (corpusPath) {
    const corpus = JSON.parse(readFileSync(corpusPath, 'utf8'))
    out.subsetVerdicts = corpus.cases.map(({ note, schema }) => {
      try {
        assertSupportedJsonSchema(schema)
        return { note, supported: true }
      } catch (error) {
        return { note, supported: false, reason: error.message }
      }
    })
  }
  out.cordisCopies = [...(globalThis.__resolvedModules ?? [])].filter((url) => /\/node_modules\/(@deepseek-ai\/)?cordis\/lib\//.test(url)).sort()
  out.traced = globalThis.__resolvedModules !== undefined
} catch (error) {
  out.error = error?.stack ?? String(error)
  process.exitCode = 1
}
console.log(JSON.stringify(out))
