// mcp-use 1.34.6 (the newest release that ships a client: 2.x leaves it to an unpublished peer), as
// its README's "Use MCP Client" recommends: an MCPClient with one server in `mcpServers`,
// createSession() (connects and caches the tool list), session.tools for what is offered to a
// model, session.callTool() for a tool call, closeAllSessions(). The connector re-lists tools on
// every notifications/tools/list_changed by itself; the client's onNotification callback (called
// after that re-list) is how an application learns of it, so the driver declares listChanged.
// Timeouts: session.callTool takes the SDK's RequestOptions (`timeout`, `signal`); the HTTP
// connector's initialize timeout (10 s) and the stdio one (the SDK's 60 s) are not configurable
// from the server config: their defaults are judged. Telemetry is switched off as its docs say
// (MCP_USE_ANONYMIZED_TELEMETRY=false): the harness has no internet, and it changes no MCP traffic.
// Asks (O.asks): the client always declares roots (empty until session.setRoots), and declares
// sampling and elicitation (form and URL) when given onSampling / onElicitation callbacks.
// session.setRoots is also its way to change roots at run time: it sends
// notifications/roots/list_changed itself (its connector declares roots.listChanged).
import { send, serve } from './serve.mjs'

process.env.MCP_USE_ANONYMIZED_TELEMETRY = 'false'
const { MCPClient } = await import('mcp-use/client')

let client
let session
let timeoutMs

const view = (tools) => tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))

serve({
  async connect(server, options) {
    timeoutMs = options.callTimeoutMs
    const definition = server.transport === 'http' ? { url: server.url } : { command: server.command, args: server.args, env: server.env }
    const asks = options.asks ?? {}
    client = new MCPClient({ mcpServers: { fixture: definition } }, {
      ...(asks.elicitation ? { onElicitation: async () => asks.elicitation.answer } : {}),
      ...(asks.sampling ? { onSampling: async () => asks.sampling.answer } : {}),
      onNotification: (notification) => {
        if (notification.method === 'notifications/tools/list_changed' && session) send({ event: 'tools', tools: view(session.tools) })
      },
    })
    session = await client.createSession('fixture')
    if (asks.roots) await session.setRoots(asks.roots)
    return ['listChanged', 'roots', 'elicitation', 'sampling']
  },
  list: async () => view(session.tools),
  async call(name, args, signal) {
    const result = await session.callTool(name, args, { signal, ...(timeoutMs ? { timeout: timeoutMs } : {}) })
    return { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent }
  },
  // Beyond tools: the session's own verbs (listAllResources follows the pages itself).
  resources: () => session.listAllResources(),
  templates: () => session.listResourceTemplates(),
  read: (uri) => session.readResource(uri),
  prompts: () => session.listPrompts(),
  prompt: (name, args) => session.getPrompt(name, args),
  complete: (ref, argument) => session.complete({ ref, argument }),
  setRoots: (roots) => session.setRoots(roots),
  close: () => client?.closeAllSessions(),
})
