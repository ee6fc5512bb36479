// The seed @deepseek-ai/dsh-mcp-client in its own host: a DeepSeek harness root (@deepseek-ai/cordis
// with dsh-system-prompt and dsh-tools' ToolRuntime, the services its README says it consumes; no
// attachment store or model runtime, which it uses only for images) loads the plugin with one
// entry, as a cordis.yml entry would. What a model is offered is ToolRuntime.schemas() (public
// names `mcp__fixture__<raw>`, the server's schemas); a tool call is ToolRuntime.execute() as the
// agent loop runs it, with its signal. Configuration per the seed's README table: `transport`
// `stdio` or `streamable-http`, `toolCallTimeoutMs` when the scenario sets a call timeout (else its
// default, 60 s), `reconnect` and `failOnStartupError` left at their defaults (reconnect on, 500 ms
// doubling to 30 s, 10 attempts; activate without tools on a failed start). The seed has no
// connect timeout (its README: "Startup timeout is inherited from the MCP SDK", 60 s).
// It re-syncs on notifications/tools/list_changed by itself: the driver declares listChanged and
// writes ToolRuntime's view after each change (coalesced to the end of the tick, so a swap is seen
// whole, as the model's next turn sees it). It also respawns a lost server, but the driver does not
// declare `reconnect`: the driver protocol carries no reconnect budget, and the kit's reconnect
// scenarios set one (maxAttempts 2 or 3, delays of 20-300 ms) that the seed's defaults (10 attempts,
// 500 ms doubling to 30 s) would be judged against unfairly.
//
// Raw names: the seed's definitions carry only the public name, which is lossy for names it must
// normalise (`a.b` becomes `mcp__fixture__a_b_<hash>`). The driver observes the tool names in the
// tools/list results the seed's SDK Client receives (a read-only wrapper of Client.prototype.request
// that returns what the SDK returned) and maps each public name back with the seed's documented
// name function (README "Tool naming"), so that the kit can tell which MCP tool a public name is.
import { createHash } from 'node:crypto'
import { setImmediate } from 'node:timers'
import { Context, Logger } from '@deepseek-ai/cordis'
import * as seed from '@deepseek-ai/dsh-mcp-client'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { send, serve } from './serve.mjs'

const SERVER = 'fixture'
const rawNames = new Set()
const request = Client.prototype.request
Client.prototype.request = async function (...args) {
  const result = await request.apply(this, args)
  if (args[0]?.method === 'tools/list') for (const tool of result?.tools ?? []) rawNames.add(tool.name)
  return result
}

/**
 * The seed's public name for (serverName, rawName), as its README and lib/index.js define it. The
 * seed's own rule, kept here on purpose: this driver reports what the seed does, so it must not
 * borrow the bridge's publicToolName (the same algorithm by design, but that is what is judged).
 */
function publicToolName(serverName, rawName) {
  // eslint-disable-next-line no-restricted-syntax -- the seed's naming, not the bridge's (see above)
  const joined = `mcp__${serverName}__${rawName}`
  const normalized = joined.replace(/[^A-Za-z0-9_-]/g, '_')
  if (normalized === joined && normalized.length <= 64) return normalized
  const hash = createHash('sha256').update(`${serverName}\0${rawName}`).digest('hex').slice(0, 12)
  return `${normalized.slice(0, 64 - 12 - 1)}_${hash}`
}

let ctx
let fibers = []
let plugin
let calls = 0

function view() {
  const byPublic = new Map([...rawNames].map((raw) => [publicToolName(SERVER, raw), raw]))
  return ctx.tools.schemas()
    // eslint-disable-next-line no-restricted-syntax -- the seed's namespace prefix, to pick its tools out
    .filter((tool) => tool.name.startsWith(`mcp__${SERVER}__`))
    .map((tool) => ({ name: tool.name, rawName: byPublic.get(tool.name) ?? tool.name, description: tool.description, inputSchema: tool.parameters }))
}

serve({
  async connect(server, options) {
    ctx = new Context()
    ctx.logger.exporter({ colors: 0, levels: { default: 3 }, export(message) { send({ event: 'log', text: `[${message.type}] ${message.name}: ${Logger.format(this, message)}` }) } })
    fibers.push(ctx.plugin(SystemPrompt))
    await fibers[0]
    fibers.push(ctx.plugin(ToolRuntime))
    await fibers[1]
    let pending = false
    ctx.on('tools/change', () => {
      if (pending) return
      pending = true
      setImmediate(() => {
        pending = false
        if (plugin) send({ event: 'tools', tools: view() })
      })
    })
    const entry = server.transport === 'http'
      ? { serverName: SERVER, transport: 'streamable-http', url: server.url }
      : { serverName: SERVER, transport: 'stdio', command: server.command, args: server.args, env: server.env }
    if (options.callTimeoutMs) entry.toolCallTimeoutMs = options.callTimeoutMs
    plugin = ctx.plugin(seed, entry)
    await plugin
    return ['listChanged']
  },
  list: async () => view(),
  async call(name, args, signal) {
    const result = await ctx.tools.execute({ callId: `kit-${++calls}`, name, arguments: args, signal })
    const content = result.content.map((block) => (block.type === 'text' ? block : { type: 'text', text: `[${block.type} block]` }))
    // A failure (the server's isError, a timeout, an unknown tool) is ToolRuntime's isError result, its text what the model reads.
    return result.isError ? { isError: true, content } : { isError: false, content, structuredContent: result.value?.structuredContent }
  },
  async close() {
    await plugin?.dispose()
    for (const fiber of fibers.reverse()) await fiber.dispose()
    fibers = []
  },
})
