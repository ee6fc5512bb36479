// @langchain/mcp-adapters, as its README recommends: a MultiServerMCPClient with one server,
// standard content blocks, getTools() for the agent and each tool's invoke() for a tool call.
// defaultToolTimeout is its per-call timeout; it does not follow list_changed.
import { MultiServerMCPClient } from '@langchain/mcp-adapters'
import { jsonSchema, serve } from './serve.mjs'

let client
let tools = []

/** A LangChain tool's output as MCP-like blocks: a string, or standard content blocks. */
function blocks(output) {
  const content = Array.isArray(output) && output.length === 2 && !output[0]?.type ? output[0] : output
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  if (!Array.isArray(content)) return [{ type: 'text', text: JSON.stringify(content) }]
  return content.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : b.type === 'image' ? { type: 'image', mimeType: b.mimeType ?? b.mime_type, data: b.data ?? '' } : { type: b.type, text: JSON.stringify(b) }))
}

serve({
  async connect(server, options) {
    const connection = server.transport === 'http'
      ? { transport: 'http', url: server.url }
      : { transport: 'stdio', command: server.command, args: server.args, env: server.env }
    client = new MultiServerMCPClient({
      throwOnLoadError: true,
      useStandardContentBlocks: true,
      ...(options.callTimeoutMs ? { defaultToolTimeout: options.callTimeoutMs } : {}),
      mcpServers: { fixture: connection },
    })
    await client.initializeConnections()
  },
  async list() {
    tools = await client.getTools()
    return tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: jsonSchema(tool.schema) }))
  },
  async call(name, args, signal) {
    const tool = tools.find((t) => t.name === name)
    if (!tool) throw new Error(`no tool ${name}`)
    // An isError result is thrown (a ToolException): the caller sees an error, answered as such.
    return { isError: false, content: blocks(await tool.invoke(args, { signal })) }
  },
  // Beyond tools: resources and templates per server, no prompts or completions.
  resources: async () => ({ resources: (await client.listResources('fixture')).fixture ?? [] }),
  templates: async () => ({ resourceTemplates: (await client.listResourceTemplates('fixture')).fixture ?? [] }),
  read: async (uri) => ({ contents: await client.readResource('fixture', uri) }),
  close: () => client?.close(),
})
