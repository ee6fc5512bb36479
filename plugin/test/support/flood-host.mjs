// A host in a process of its own, so that its peak RSS is the bridge's and nothing else's.
// Usage: node flood-host.mjs <url> <maxResultBytes> <tool>
// Prints one JSON line: the peak RSS before and after calling <tool>, and the call's outcome.
import * as bridge from '@mcp-bridge/plugin'
import { ToolRegistry } from '@mcp-bridge/plugin/host'
import { Context } from 'cordis'

const [url, maxResultBytes, tool] = process.argv.slice(2)
const ctx = new Context()
await ctx.plugin(ToolRegistry)
const fiber = ctx.plugin(bridge, {
  transport: 'streamable-http',
  serverName: 'flood',
  url,
  limits: { maxResultBytes: Number(maxResultBytes) },
  reconnect: { enabled: false },
})
await fiber
// Everything a call allocates once (the SDK's schemas, undici's pools) is allocated before measuring.
await ctx.tools.execute(bridge.publicToolName('flood', 'small'), {})
const peak = () => process.resourceUsage().maxRSS * 1024
const before = peak()
const result = await ctx.tools.execute(bridge.publicToolName('flood', tool), {})
const after = peak()
process.stdout.write(`${JSON.stringify({ before, after, isError: result.isError, code: result.error?.code, message: result.error?.message })}\n`)
await fiber.dispose()
process.exit(0)
