// A server that asks its client for sampling, both ways the spec has: server requests on the v1
// SDK (legacyFactory, MCP 2025-11-25) and input requests of an input_required result on the v2
// SDK (modernFactory, 2026-07-28). Each tool answers with what the client answered (or the
// error it sent) as JSON text. `node sampling-server.mjs legacy|modern` serves one over stdio;
// the tests serve both over HTTP in-process.
import { inputRequired, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { McpServer as LegacyServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'

/** A secret shape the bridge's redactor knows: it must never reach the host's model. */
export const SECRET = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB'

const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] })

/** The request each `sample` sends: a hint, a system prompt and a user turn carrying a secret. */
export function samplingParams({ prompt = 'hello', maxTokens = 100, hint, image = false } = {}) {
  return {
    messages: [{ role: 'user', content: image ? { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } : { type: 'text', text: `${prompt} token=${SECRET}` } }],
    systemPrompt: 'You are a test server.',
    maxTokens,
    ...(hint ? { modelPreferences: { hints: [{ name: hint }], costPriority: 1 } } : {}),
  }
}

const Args = { prompt: z.string().optional(), maxTokens: z.number().optional(), hint: z.string().optional(), image: z.boolean().optional() }

export function legacyFactory() {
  const server = new LegacyServer({ name: 'sampling-legacy', version: '1.0.0' }, { capabilities: { tools: {} } })
  const ask = (params) => server.server.request({ method: 'sampling/createMessage', params }, CreateMessageResultSchema)
  server.registerTool('sample', { inputSchema: Args }, (args) => ask(samplingParams(args)).then(text, (error) => text({ error: error.message })))
  // `count` asks at once: which of them the client answers shows its caps.
  server.registerTool('sample_flood', { inputSchema: { count: z.number() } }, async ({ count }) => {
    let settled = 0
    // Each settled ask is told on stderr (`settled N`), which a test reads in the bridge's log.
    const tell = (outcome) => (process.stderr.write(`settled ${++settled}\n`), outcome)
    const outcomes = await Promise.all(Array.from({ length: count }, (_, i) => ask(samplingParams({ prompt: `ask ${i}` })).then(() => tell('answered'), (error) => tell(error.message))))
    return text(outcomes)
  })
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text: said }) => ({ content: [{ type: 'text', text: `echo: ${said}` }] }))
  server.registerTool('caps', { inputSchema: {} }, () => text(server.server.getClientCapabilities() ?? {}))
  return server
}

/** Asks once; on the retry answers with what the client sent. */
export function modernFactory() {
  const server = new McpServer({ name: 'sampling-modern', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.registerTool('sample', { inputSchema: z.object(Args) }, async (args, ctx) => {
    const responses = ctx.mcpReq.inputResponses
    if (!responses?.s) return inputRequired({ inputRequests: { s: inputRequired.createMessage(samplingParams(args)) }, requestState: 'state-of-sample' })
    return text({ answer: responses.s })
  })
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text: said }) => ({ content: [{ type: 'text', text: `echo: ${said}` }] }))
  return server
}

if (process.argv[2] === 'legacy') await legacyFactory().connect(new StdioServerTransport())
else if (process.argv[2] === 'modern') serveStdio(modernFactory, { legacy: 'reject' })
