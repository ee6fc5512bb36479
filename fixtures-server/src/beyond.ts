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
  type ServerNotification,
  type ServerResult,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { PromptSpec, ResourceSpec } from './beyond-schema.ts'
import { META } from './era.ts'
import { paginate } from './pagination.ts'
import { prng } from './prng.ts'
import type { Behaviour } from './schema.ts'
import type { Subscriptions } from './subscriptions.ts'

/** The 2025-11-25 code for a resource the server does not have (server/resources §Error Handling). */
const RESOURCE_NOT_FOUND = -32002

/** The capabilities the scripted features declare; none when nothing beyond tools is scripted. */
export function beyondCapabilities(behaviour: Behaviour): Record<string, object> {
  const { resources, prompts, completions, logFlood } = behaviour
  return {
    ...(resources && { resources: { ...(resources.subscribe && { subscribe: true }), ...(resources.change && { listChanged: true }) } }),
    ...(prompts && { prompts: { ...(prompts.change && { listChanged: true }) } }), ...(completions && { completions: {} }), ...(logFlood && { logging: {} }) }
}

/** Registers the handlers of the scripted features on one session's server. */
export function serveBeyond(server: Server, behaviour: Behaviour, subscriptions: Subscriptions): void {
  const { resources, prompts, completions, seed } = behaviour
  const page = <T>(items: T[], pageSize: number | undefined, cursor: string | undefined) => {
    const result = paginate(items, pageSize === undefined ? undefined : { pageSize, cursor: 'opaque', emptyPages: 0 }, cursor, seed)
    if (!result.ok) throw new McpError(ErrorCode.InvalidParams, result.message)
    return result.page
  }
  if (resources) {
    const listed = new ChangingList(resources.items, resources.change, () => subscriptions.listChanged('resources', () => {}))
    server.setRequestHandler(ListResourcesRequestSchema, (request) => {
      const { items, nextCursor } = page(listed.current(), resources.pageSize, request.params?.cursor)
      return {
        resources: items.map(({ uri, name, mimeType }) => ({ uri, name, ...(mimeType && { mimeType }) })),
        ...(nextCursor !== undefined && { nextCursor }),
        ...cacheHints(resources, request.params),
      }
    })
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
      const { items, nextCursor } = page(resources.templates, resources.pageSize, request.params?.cursor)
      return { resourceTemplates: items, ...(nextCursor !== undefined && { nextCursor }), ...cacheHints(resources, request.params) }
    })
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      // Exactly the listed URI: a client that normalises or re-encodes it reads nothing.
      const found = listed.current().find((r) => r.uri === request.params.uri)
      if (!found) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${request.params.uri.slice(0, 200)}`)
      await listed.changeOnce('notifications/resources/list_changed', request.params, extra.sendNotification)
      return { contents: [resourceContents(found, seed)], ...cacheHints(resources, request.params) } as ServerResult
    })
    if (resources.subscribe) serveSubscriptions(server, resources.subscribe.alsoUpdate)
  }
  if (prompts) {
    const listed = new ChangingList(prompts.items, prompts.change, () => subscriptions.listChanged('prompts', () => {}))
    server.setRequestHandler(ListPromptsRequestSchema, (request) => {
      const { items, nextCursor } = page(listed.current(), prompts.pageSize, request.params?.cursor)
      return {
        prompts: items.map(({ name, description, arguments: args }) => ({ name, ...(description && { description }), arguments: args })),
        ...(nextCursor !== undefined && { nextCursor }),
        ...cacheHints(prompts, request.params),
      }
    })
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const answer = getPrompt(listed.current(), request.params.name, request.params.arguments ?? {})
      await listed.changeOnce('notifications/prompts/list_changed', request.params, extra.sendNotification)
      return answer
    })
  }
  if (completions) {
    server.setRequestHandler(CompleteRequestSchema, (request) => {
      const { name, value } = request.params.argument
      const values = (completions[name] ?? []).filter((v) => v.startsWith(value))
      return { completion: { values, total: values.length, hasMore: false } }
    })
  }
}

type SendNotification = (notification: ServerNotification) => Promise<void>

/** A modern request names its revision in `_meta`; a legacy one does not. */
function isModern(params: { _meta?: Record<string, unknown> } | undefined): boolean {
  return typeof params?._meta?.[META.protocolVersion] === 'string'
}

/**
 * The cache hints of a list or read result: a modern one always has both (the 2026-07-28 schema's
 * CacheableResult requires `ttlMs` and `cacheScope`), a legacy one only what the script gives.
 */
function cacheHints(list: { ttlMs?: number; cacheScope?: 'public' | 'private' }, params: { _meta?: Record<string, unknown> } | undefined): Record<string, unknown> {
  if (isModern(params)) return { ttlMs: list.ttlMs ?? 0, cacheScope: list.cacheScope ?? 'private' }
  return { ...(list.ttlMs !== undefined && { ttlMs: list.ttlMs }), ...(list.cacheScope && { cacheScope: list.cacheScope }) }
}

/**
 * Whether a scripted list has changed, per fixture: a modern HTTP client's every POST is a
 * session of its own, so the state cannot live in one (keyed by the script's own list object).
 */
const changedLists = new WeakSet<object>()

/** A scripted list that may change once (beyond-schema.ts `change`). */
class ChangingList<T> {
  private get changed(): boolean {
    return this.change !== undefined && changedLists.has(this.change)
  }

  constructor(
    private readonly items: T[],
    private readonly change: { next: T[]; broken: boolean } | undefined,
    /** Tells modern clients, on the subscriptions/listen streams that asked for it. */
    private readonly tellModern: () => void,
  ) {}

  current(): T[] {
    if (this.changed && this.change?.broken) throw new McpError(ErrorCode.InternalError, 'the list is broken (scripted)')
    return this.changed && this.change ? this.change.next : this.items
  }

  /**
   * The first time only: the list becomes `next` and the client is told: a legacy one on the
   * request's own stream, a modern one on its subscriptions/listen streams (a modern server sends
   * nothing outside them).
   */
  async changeOnce(method: 'notifications/resources/list_changed' | 'notifications/prompts/list_changed', params: { _meta?: Record<string, unknown> } | undefined, send: SendNotification): Promise<void> {
    if (!this.change || this.changed) return
    changedLists.add(this.change)
    if (!isModern(params)) await send({ method } as ServerNotification)
    else this.tellModern()
  }
}

/**
 * resources/subscribe and /unsubscribe, per session. Just before a subscribe is answered, on the
 * request's own stream: notifications/resources/updated for the URI
 * subscribed and for each `alsoUpdate` URI, subscribed or not, so a client's filtering shows.
 */
function serveSubscriptions(server: Server, alsoUpdate: string[]): void {
  const subscribed = new Set<string>()
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    subscribed.add(request.params.uri)
    if (!isModern(request.params)) {
      for (const uri of [request.params.uri, ...alsoUpdate]) await extra.sendNotification({ method: 'notifications/resources/updated', params: { uri } })
    }
    return {}
  })
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri)
    return {}
  })
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
