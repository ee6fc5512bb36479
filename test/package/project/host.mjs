// A host in plain JavaScript, run with plain `node` (no tsx, no loader) inside the fresh project
// that test/package/package.test.ts installs the packed packages into. It loads the plugin against
// server-everything over stdio, calls `echo`, disposes, and must then exit on its own.
// Prints one JSON line: { node, tools, result, afterDispose }.
import { createRequire } from 'node:module'
import { Context } from 'cordis'
import * as bridge from '@mcp-bridge/plugin'
import { ToolRegistry } from '@mcp-bridge/host'

const ECHO = 'mcp__everything__echo'
const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')

const ctx = new Context()
await ctx.plugin(ToolRegistry)
const fiber = ctx.plugin(bridge, {
  serverName: 'everything',
  transport: 'stdio',
  command: process.execPath,
  args: [entry],
  failOnStartupError: true,
})
await fiber // activation waits for the first connection and discovery

// Activation already waited for discovery; the bounded wait only turns a regression into a message.
const deadline = Date.now() + 10_000
while (!ctx.tools.list().some((tool) => tool.name === ECHO)) {
  if (Date.now() > deadline) throw new Error(`${ECHO} was not listed within 10 s; listed: ${ctx.tools.list().map((tool) => tool.name).join(', ')}`)
  await new Promise((resolve) => setTimeout(resolve, 50))
}
const tools = ctx.tools.list().map((tool) => tool.name)
const result = await ctx.tools.execute(ECHO, { message: 'hi' })
await fiber.dispose()
const afterDispose = ctx.tools.list().map((tool) => tool.name)
console.log(JSON.stringify({ node: process.version, tools, result, afterDispose }))
