// @mastra/mcp, as its docs recommend: an MCPClient with one server, listTools() handed to an Agent
// (names namespaced <server>_<tool>), each tool's execute() as the agent runs it, disconnect().
// `timeout` is its per-request timeout; it does not follow list_changed. Elicitation, its one client
// capability, is declared with an `inputRequests` handler that answers as the scenario says (O.asks).
import { MCPClient } from '@mastra/mcp'
import { jsonSchema, serve } from './serve.mjs'

let client
let tools = {}

serve({
  async connect(server, options) {
    const definition = server.transport === 'http'
      ? { url: new URL(server.url) }
      : { command: server.command, args: server.args, env: server.env }
    const elicitation = options.asks?.elicitation
    if (elicitation) {
      definition.capabilities = { elicitation: Object.fromEntries((elicitation.modes ?? ['form']).map((mode) => [mode, {}])) }
      definition.inputRequests = async () => elicitation.answer
    }
    client = new MCPClient({ id: `kit-${process.pid}`, servers: { fixture: definition }, ...(options.callTimeoutMs ? { timeout: options.callTimeoutMs } : {}) })
    return ['elicitation']
  },
  async list() {
    tools = await client.listTools()
    return Object.entries(tools).map(([name, tool]) => ({ name, rawName: name.replace(/^fixture_/, ''), description: tool.description, inputSchema: jsonSchema(tool.inputSchema) }))
  },
  async call(name, args, signal) {
    const tool = tools[name]
    if (!tool) throw new Error(`no tool ${name}`)
    const result = await tool.execute(args, { abortSignal: signal })
    if (result && Array.isArray(result.content)) return { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent }
    return { isError: false, content: [{ type: 'text', text: typeof result === 'string' ? result : JSON.stringify(result) }] }
  },
  // Beyond tools: resources, templates and prompts per server (its own paging), no completions.
  resources: async () => ({ resources: (await client.resources.list()).fixture ?? [] }),
  templates: async () => ({ resourceTemplates: (await client.resources.templates()).fixture ?? [] }),
  read: (uri) => client.resources.read('fixture', uri),
  prompts: async () => ({ prompts: (await client.prompts.list()).fixture ?? [] }),
  prompt: (name, args) => client.prompts.get({ serverName: 'fixture', name, args }),
  close: () => client?.disconnect(),
})
