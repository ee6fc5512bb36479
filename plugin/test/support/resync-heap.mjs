/* global performance */
// Re-syncs a generation of tools again and again, the way ServerConnection.sync does, in a process
// of its own started with --expose-gc, and prints the heap after GC before and after.
// Usage: node --expose-gc resync-heap.mjs <rounds> <tools>
import * as bridge from '@mcp-bridge/plugin'
import { ToolRegistry } from '@mcp-bridge/host'
import { Context } from 'cordis'
import { PlannedTool } from '../../dist/definition.js'
import { SchemaCompiler } from '@mcp-bridge/process'
import { ToolSet } from '../../dist/tool-set.js'

const [rounds, count] = process.argv.slice(2).map(Number)
const ctx = new Context()
await ctx.plugin(ToolRegistry)
const tools = new ToolSet(ctx.tools)
const limits = { maxResultTextChars: 100_000, maxResultBytes: 16 * 1024 * 1024 }
let calls = 0

/** One generation: every tool changed, every schema a fresh object sharing its $id with the others. */
async function resync(round) {
  // As in sync(): the generation's definitions own its compiler, and with it their validators.
  const compiler = new SchemaCompiler()
  const entries = Array.from({ length: count }, (_, i) => {
    const bound = round * count + i
    const tool = {
      rawName: `t${i}`,
      publicName: bridge.publicToolName('heap', `t${i}`),
      description: `tool ${i} of generation ${round}`,
      inputSchema: { $id: 'https://example.com/in.json', type: 'object', properties: { n: { type: 'number', maximum: bound } } },
      outputSchema: { $id: 'https://example.com/out.json', type: 'object', properties: { n: { type: 'number', maximum: bound } } },
    }
    const options = {
      serverName: 'heap',
      invoke: async () => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 0 } }),
      limits,
      imageServices: () => ({}),
      warn: (message) => {
        throw new Error(`a schema did not compile: ${message}`)
      },
      compiler,
    }
    // The entry sync() builds: its signature differs from the registered one (the description and
    // the schemas' bounds change every round), so every tool is replaced.
    return new PlannedTool(tool, options)
  })
  tools.swap(entries)
  // Calls compile the registry's argument validators (lazily, per registration batch).
  for (let i = 0; i < count; i += 50) {
    const name = bridge.publicToolName('heap', `t${i}`)
    const ok = await ctx.tools.execute(name, { n: 0 })
    const refused = await ctx.tools.execute(name, { n: round * count + i + 1 })
    if (ok.isError || refused.error?.code !== 'INVALID_ARGS') throw new Error(`validation did not hold: ${JSON.stringify([ok, refused])}`)
    calls += 2
  }
}

const heap = () => {
  for (let i = 0; i < 4; i++) globalThis.gc()
  return process.memoryUsage().heapUsed
}
// The first generations warm up what every later one reuses (JIT code, the SDK's and Ajv's own tables).
const WARM_UP = 5
for (let round = 0; round < WARM_UP; round++) await resync(round)
const start = heap()
const started = performance.now()
for (let round = WARM_UP; round < WARM_UP + rounds; round++) {
  await resync(round)
  if (process.env.HEAP_TRACE) process.stderr.write(`${round} ${((heap() - start) / 1048576).toFixed(2)} MB\n`)
}
const end = heap()
process.stdout.write(`${JSON.stringify({ start, end, calls, ms: Math.round(performance.now() - started) })}\n`)
process.exit(0)
