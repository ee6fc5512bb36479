// @ai-sdk/mcp, as its docs recommend: createMCPClient with the HTTP transport config or the stdio
// transport from @ai-sdk/mcp/mcp-stdio; client.tools() is the tool set handed to generateText,
// and each tool's execute() is what the model's tool call runs. The client has no per-call timeout
// setting and does not follow list_changed: its defaults are judged. Elicitation, its one client
// capability, is declared and answered through onElicitationRequest as the scenario says (O.asks).
import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp'
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio'
import { allPages, jsonSchema, serve } from './serve.mjs'

let client
let tools = {}
let calls = 0

serve({
  async connect(server, options) {
    const transport = server.transport === 'http'
      ? { type: 'http', url: server.url }
      : new Experimental_StdioMCPTransport({ command: server.command, args: server.args, env: server.env })
    const init = options.connectTimeoutMs ? { initializationOptions: { timeout: options.connectTimeoutMs } } : {}
    const elicitation = options.asks?.elicitation
    // Form mode only: its input-request path refuses URL mode ("Only form elicitation is supported").
    const capabilities = elicitation ? { capabilities: { elicitation: { form: {} } } } : {}
    client = await createMCPClient({ transport, ...init, ...capabilities })
    if (elicitation) client.onElicitationRequest(ElicitationRequestSchema, () => elicitation.answer)
    return ['elicitation']
  },
  async list() {
    tools = await client.tools()
    return Object.entries(tools).map(([name, tool]) => ({ name, description: tool.description, inputSchema: jsonSchema(tool.inputSchema) }))
  },
  async call(name, args, signal) {
    const tool = tools[name]
    if (!tool) throw new Error(`no tool ${name}`)
    const result = await tool.execute(args, { toolCallId: `call-${++calls}`, messages: [], abortSignal: signal })
    return { isError: result.isError === true, content: result.content, structuredContent: result.structuredContent }
  },
  // Beyond tools: resources and prompts take a cursor, so the application follows the pages;
  // listResourceTemplates takes none, so only the first page can be had.
  resources: () => allPages((cursor) => client.listResources(cursor === undefined ? {} : { params: { cursor } }), 'resources'),
  templates: () => client.listResourceTemplates(),
  read: (uri) => client.readResource({ uri }),
  prompts: () => allPages((cursor) => client.listPrompts(cursor === undefined ? {} : { params: { cursor } }), 'prompts'),
  prompt: (name, args) => client.getPrompt({ name, arguments: args }),
  complete: (ref, argument) => client.complete({ ref, argument }),
  close: () => client?.close(),
})
