import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js'
import type { PromptSpec, ResourceSpec } from './beyond-schema.ts'
import { paginate } from './pagination.ts'
import { prng } from './prng.ts'
import type { Behaviour } from './schema.ts'

/** The 2025-11-25 code for a resource the server does not have (server/resources §Error Handling). */
const RESOURCE_NOT_FOUND = -32002

/** The capabilities the scripted features declare; none when nothing beyond tools is scripted. */
export function beyondCapabilities(behaviour: Behaviour): Record<string, object> {
  const { resources, prompts, completions, logFlood } = behaviour
  return { ...(resources && { resources: {} }), ...(prompts && { prompts: {} }), ...(completions && { completions: {} }), ...(logFlood && { logging: {} }) }
}

/** Registers the handlers of the scripted features on one session's server. */
export function serveBeyond(server: Server, behaviour: Behaviour): void {
  const { resources, prompts, completions, seed } = behaviour
  const page = <T>(items: T[], pageSize: number | undefined, cursor: string | undefined) => {
    const result = paginate(items, pageSize === undefined ? undefined : { pageSize, cursor: 'opaque', emptyPages: 0 }, cursor, seed)
    if (!result.ok) throw new McpError(ErrorCode.InvalidParams, result.message)
    return result.page
  }
  if (resources) {
    server.setRequestHandler(ListResourcesRequestSchema, (request) => {
      const { items, nextCursor } = page(resources.items, resources.pageSize, request.params?.cursor)
      return { resources: items.map(({ uri, name, mimeType }) => ({ uri, name, ...(mimeType && { mimeType }) })), ...(nextCursor !== undefined && { nextCursor }) }
    })
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
      const { items, nextCursor } = page(resources.templates, resources.pageSize, request.params?.cursor)
      return { resourceTemplates: items, ...(nextCursor !== undefined && { nextCursor }) }
    })
    server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      // Exactly the listed URI: a client that normalises or re-encodes it reads nothing.
      const found = resources.items.find((r) => r.uri === request.params.uri)
      if (!found) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${request.params.uri.slice(0, 200)}`)
      return { contents: [resourceContents(found, seed)] } as ServerResult
    })
  }
  if (prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, (request) => {
      const { items, nextCursor } = page(prompts.items, prompts.pageSize, request.params?.cursor)
      return { prompts: items.map(({ name, description, arguments: args }) => ({ name, ...(description && { description }), arguments: args })), ...(nextCursor !== undefined && { nextCursor }) }
    })
    server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(prompts.items, request.params.name, request.params.arguments ?? {}))
  }
  if (completions) {
    server.setRequestHandler(CompleteRequestSchema, (request) => {
      const { name, value } = request.params.argument
      const values = (completions[name] ?? []).filter((v) => v.startsWith(value))
      return { completion: { values, total: values.length, hasMore: false } }
    })
  }
}

/** Floods the client with log messages once it is ready: a burst no well-behaved server sends. */
export async function floodLogs(server: Server, behaviour: Behaviour): Promise<void> {
  const flood = behaviour.logFlood
  if (!flood) return
  for (let i = 1; i <= flood.count; i++) {
    await server.notification({ method: 'notifications/message', params: { level: flood.level, logger: 'fixture-flood', data: `log line ${i} of ${flood.count}` } })
  }
}

/** What a read answers: text (repeated to size), a written blob, or seeded bytes as base64. */
export function resourceContents(resource: ResourceSpec, seed: number): Record<string, string> {
  const head = { uri: resource.uri, ...(resource.mimeType && { mimeType: resource.mimeType }) }
  if (resource.text !== undefined) return { ...head, text: resource.repeatTo ? repeatTo(resource.text, resource.repeatTo) : resource.text }
  if (resource.blob !== undefined) return { ...head, blob: resource.blob }
  return { ...head, blob: seededBytes(resource.bytes!, seed).toString('base64') }
}

/** Every byte value first (so a client that treats the blob as text breaks), then seeded noise. */
export function seededBytes(count: number, seed: number): Buffer {
  const random = prng(seed, 0xb10b)
  return Buffer.from(Array.from({ length: count }, (_, i) => (i < 256 ? i : Math.floor(random() * 256))))
}

function repeatTo(text: string, length: number): string {
  return text.repeat(Math.ceil(length / Math.max(1, text.length))).slice(0, length)
}

function getPrompt(prompts: PromptSpec[], name: string, args: Record<string, string>): ServerResult {
  const prompt = prompts.find((p) => p.name === name)
  if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name.slice(0, 200)}`)
  const missing = prompt.arguments.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name)
  if (missing.length) throw new McpError(ErrorCode.InvalidParams, `Missing required arguments: ${missing.join(', ')}`)
  const text = prompt.text.replace(/\{([A-Za-z0-9_-]+)\}/g, (whole, arg: string) => args[arg] ?? whole)
  return { ...(prompt.description && { description: prompt.description }), messages: [{ role: 'user', content: { type: 'text', text } }] }
}
