// @openai/agents, as its MCP guide recommends: MCPServerStdio or MCPServerStreamableHttp, connect(),
// listTools() for what the agent offers the model, callTool() as the agent's tool call runs it
// (content blocks, with the signal), close(). `timeout` is its per-request timeout; it caches no
// tool list by default and does not follow list_changed.
import { MCPServerStdio, MCPServerStreamableHttp } from '@openai/agents'
import { allPages, serve } from './serve.mjs'

let server

serve({
  async connect(target, options) {
    const common = { name: 'fixture', ...(options.callTimeoutMs ? { timeout: options.callTimeoutMs } : {}) }
    server = target.transport === 'http'
      ? new MCPServerStreamableHttp({ url: target.url, ...common })
      : new MCPServerStdio({ command: target.command, args: target.args, env: target.env, ...common })
    await server.connect()
  },
  async list() {
    return (await server.listTools()).map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))
  },
  async call(name, args, signal) {
    const content = await server.callTool(name, args, undefined, { signal })
    return { isError: content.isError === true, content, structuredContent: content.structuredContent }
  },
  // Beyond tools: resources and templates take a cursor, so the application follows the pages; no prompts or completions.
  resources: () => allPages((cursor) => server.listResources(cursor === undefined ? undefined : { cursor }), 'resources'),
  templates: () => allPages((cursor) => server.listResourceTemplates(cursor === undefined ? undefined : { cursor }), 'resourceTemplates'),
  read: (uri) => server.readResource(uri),
  close: () => server?.close(),
})
