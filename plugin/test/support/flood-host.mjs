// A host in a process of its own, so that what it holds is the bridge's and nothing else's.
// Usage: node --expose-gc flood-host.mjs <url> <maxResultBytes> <tool>
// Prints one JSON line: the call's outcome, and how far the host's memory grew during it.
import * as bridge from '@mcp-bridge/plugin'
import { ToolRegistry } from '@mcp-bridge/host'
import { setInterval, clearInterval } from 'node:timers'
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
// Everything a call allocates once (the SDK's schemas, undici's pools) is allocated, and the
// garbage of doing so collected, before measuring.
await ctx.tools.execute(bridge.publicToolName('flood', 'small'), {})
globalThis.gc()

// What JavaScript holds (heap and buffers) is sampled every millisecond the event loop allows: it
// is what the bridge can keep or drop. Peak RSS is reported too, but the allocator decides when
// freed pages go back, so it wanders by tens of MiB from run to run whatever the limit.
const held = () => {
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}
const heldBefore = held()
let heldPeak = heldBefore
const sampler = setInterval(() => (heldPeak = Math.max(heldPeak, held())), 1)
const rssBefore = process.resourceUsage().maxRSS * 1024
const result = await ctx.tools.execute(bridge.publicToolName('flood', tool), {})
heldPeak = Math.max(heldPeak, held())
clearInterval(sampler)
const rssGrown = process.resourceUsage().maxRSS * 1024 - rssBefore
const heldGrown = heldPeak - heldBefore
process.stdout.write(`${JSON.stringify({ heldGrown, rssGrown, isError: result.isError, code: result.error?.code, message: result.error?.message })}\n`)
await fiber.dispose()
process.exit(0)
