// A server that asks its client for things (elicitation, roots), both ways the spec has: as
// server requests on the v1 SDK (`node asks-server.mjs legacy`, MCP 2025-11-25) and as the
// inputRequests of an input_required result on the v2 SDK (`node asks-server.mjs modern`,
// 2026-07-28). Each tool answers with what the client answered, as JSON text; the client's
// capabilities and every roots/list_changed it is sent go to stderr (`caps ...`, `roots changed`).
import { inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { McpServer as LegacyServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'

/** The form every ask_form sends: defaults on two fields, one required field without. */
export const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 1 },
    age: { type: 'integer', default: 30 },
    plan: { type: 'string', enum: ['free', 'pro'], default: 'free' },
  },
  required: ['name'],
}
/** Outside the subset: a nested object. */
const NESTED = { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } }
/** Within the SDK's shape, outside the form rules: required names no property. */
const UNKNOWN_REQUIRED = { type: 'object', properties: { city: { type: 'string' } }, required: ['country'] }
const URL_ASK = { message: 'Sign in at the provider', url: 'https://auth.example.com/start?session=1' }

const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] })

function legacy() {
  const server = new LegacyServer({ name: 'asks-legacy', version: '1.0.0' }, { capabilities: { tools: {} } })
  const ask = (params) => server.server.request({ method: 'elicitation/create', params }, z.object({}).passthrough()).then(text, (error) => text({ error: error.message }))
  server.registerTool('ask_form', { inputSchema: {} }, () => ask({ mode: 'form', message: 'Who are you?', requestedSchema: FORM }))
  server.registerTool('ask_nested', { inputSchema: {} }, () => ask({ mode: 'form', message: 'Where?', requestedSchema: NESTED }))
  server.registerTool('ask_unknown_required', { inputSchema: {} }, () => ask({ mode: 'form', message: 'Where?', requestedSchema: UNKNOWN_REQUIRED }))
  server.registerTool('ask_url', { inputSchema: {} }, () => ask({ mode: 'url', elicitationId: 'e1', ...URL_ASK }))
  // Ten asks at once: how many the client declines without asking shows its bound.
  server.registerTool('ask_flood', { inputSchema: {} }, async () => {
    const asks = Array.from({ length: 10 }, (_, i) => server.server.request({ method: 'elicitation/create', params: { mode: 'form', message: `ask ${i}`, requestedSchema: { type: 'object', properties: {} } } }, z.object({}).passthrough()))
    return text((await Promise.all(asks)).map((answer) => answer.action))
  })
  server.registerTool('roots', { inputSchema: {} }, () => server.server.listRoots().then(text, (error) => text({ error: error.message })))
  server.server.oninitialized = () => process.stderr.write(`caps ${JSON.stringify(server.server.getClientCapabilities() ?? {})}\n`)
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => void process.stderr.write('roots changed\n'))
  return server
}

/** Asks once; on the retry answers with what the client sent (and the state it echoed). */
function modern() {
  const server = new McpServer({ name: 'asks-modern', version: '1.0.0' }, { capabilities: { tools: {} } })
  const once = (name, request) =>
    server.registerTool(name, { inputSchema: z.object({}) }, async (_args, ctx) => {
      const responses = ctx.mcpReq.inputResponses
      if (!responses?.a) return inputRequired({ inputRequests: { a: request }, requestState: `state-of-${name}` })
      return text({ answer: responses.a, state: typeof ctx.mcpReq.requestState === 'function' ? ctx.mcpReq.requestState() : ctx.mcpReq.requestState ?? null, view: inputResponse(responses, 'a').kind })
    })
  once('ask_form', inputRequired.elicit({ message: 'Who are you?', requestedSchema: FORM }))
  once('ask_nested', { method: 'elicitation/create', params: { mode: 'form', message: 'Where?', requestedSchema: NESTED } })
  once('ask_unknown_required', { method: 'elicitation/create', params: { mode: 'form', message: 'Where?', requestedSchema: UNKNOWN_REQUIRED } })
  once('ask_url', inputRequired.elicitUrl(URL_ASK))
  once('roots', inputRequired.listRoots())
  return server
}

if (process.argv[2] === 'legacy') await legacy().connect(new StdioServerTransport())
else if (process.argv[2] === 'modern') serveStdio(modern, { legacy: 'reject' })
