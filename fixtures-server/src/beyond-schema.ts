import { z } from 'zod'

/**
 * The fixture's features beyond tools (beyond.ts serves them): resources, resource templates,
 * prompts, completions and a log flood. Each is declared as a capability only when scripted, so
 * a scenario without them serves exactly what it did before.
 */
const positive = z.int().min(1)

const ResourceSchema = z
  .strictObject({
    uri: z.string().min(1),
    name: z.string().min(1),
    mimeType: z.string().optional(),
    /** The text `resources/read` answers. */
    text: z.string().optional(),
    /** Binary contents: base64 as written (blob) or generated (`bytes` seeded bytes covering 0x00-0xff). */
    blob: z.string().optional(),
    bytes: positive.optional(),
    /** A huge text: `text` repeated to this many characters. */
    repeatTo: positive.max(64 * 1024 * 1024).optional(),
  })
  .refine((r) => [r.text, r.blob, r.bytes].filter((v) => v !== undefined).length === 1, 'give exactly one of text, blob or bytes')
  .refine((r) => r.repeatTo === undefined || r.text !== undefined, 'repeatTo repeats text: give text')

const TemplateSchema = z.strictObject({
  uriTemplate: z.string().min(1),
  name: z.string().min(1),
  mimeType: z.string().optional(),
})

const PromptSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  arguments: z.array(z.strictObject({ name: z.string().min(1), description: z.string().optional(), required: z.boolean().optional() })).default([]),
  /** The user message `prompts/get` answers; `{arg}` is replaced by that argument's value. */
  text: z.string(),
})

/**
 * Per page size of a list (resources, templates, prompts): cursors as opaque as tools' (pagination.ts).
 * `ttlMs` and `cacheScope` are the 2026-07-28 cache hints (schema `CacheableResult`, top level of
 * the result): a modern request's every page carries them (0 and "private" when not scripted, as
 * the schema requires both), a legacy one's only when scripted.
 */
const PagedSchema = z.strictObject({ pageSize: positive.optional(), ttlMs: z.int().min(0).optional(), cacheScope: z.enum(['public', 'private']).optional() })

/**
 * A list that changes: after the first read (resources) or get (prompts) is answered, the list
 * becomes `next` and notifications/<list>/list_changed is sent (`listChanged` declared);
 * `broken`: every later list request fails instead (-32603), so a client's re-sync fails.
 */
const changeSchema = <T extends z.ZodType>(item: T) => z.strictObject({ next: z.array(item).default([]), broken: z.boolean().default(false) }).optional()

export const BeyondSchema = {
  resources: PagedSchema.extend({
    items: z.array(ResourceSchema).default([]),
    templates: z.array(TemplateSchema).default([]),
    change: changeSchema(ResourceSchema),
    /**
     * Declares `resources.subscribe` and answers resources/subscribe and /unsubscribe. After each
     * subscribe is answered, notifications/resources/updated is sent for each of these URIs,
     * subscribed or not (a client hears only what it subscribed to), and for the one subscribed.
     */
    subscribe: z.strictObject({ alsoUpdate: z.array(z.string().min(1)).default([]) }).optional(),
  }).optional(),
  prompts: PagedSchema.extend({ items: z.array(PromptSchema).default([]), change: changeSchema(PromptSchema) }).optional(),
  /** completion/complete answers: values per argument name, filtered by the prefix typed (the `values` are the server's, at most 100). */
  completions: z.record(z.string(), z.array(z.string()).max(100)).optional(),
  /** After the client is initialized: this many notifications/message as fast as they go (declares `logging`). */
  logFlood: z.strictObject({ count: positive.max(100_000), level: z.enum(['debug', 'info', 'warning', 'error']).default('info') }).optional(),
}

export type ResourceSpec = z.output<typeof ResourceSchema>
export type PromptSpec = z.output<typeof PromptSchema>
