// Hosting the bridge from code: a Cordis root, the reference `tools` service, two MCP servers.
// From the repository root: node --import tsx examples/host.ts
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { Context } from 'cordis'
import * as bridge from '@mcp-bridge/plugin'
import { attachConsoleLogger, ToolRegistry } from '@mcp-bridge/host'

const require = createRequire(import.meta.url)
const ctx = new Context()
// Cordis 4 prints nothing until an exporter is attached; logs go to stderr.
attachConsoleLogger(ctx, { level: 'warn' })
// Await the service first: awaiting a fiber whose injected service is missing returns at once.
await ctx.plugin(ToolRegistry)

// Plug every instance, then await them all, so they connect in parallel.
const everything = ctx.plugin(bridge, {
  serverName: 'everything',
  transport: 'stdio',
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
})
const fs = ctx.plugin(bridge, {
  serverName: 'fs',
  transport: 'stdio',
  command: process.execPath,
  args: [require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), fileURLToPath(new URL('sandbox', import.meta.url))],
})
await Promise.all([everything, fs])

// What a model is offered: public names, descriptions, JSON Schemas.
for (const tool of ctx.tools.list()) console.log(tool.name)

const result = await ctx.tools.execute('mcp__everything__echo', { message: 'hi' })
console.log(result.isError ? `error: ${result.error.message}` : result.content)

// Disposing an instance unregisters its tools and stops its server process.
await Promise.all([everything.dispose(), fs.dispose()])
