import type { DriverAsks } from '../client-asks.ts'

/**
 * The driver protocol (FORMAT.md §Driver protocol): JSON lines over a driver program's stdin and
 * stdout, so that a client in any language is judged by a short program that drives it. The kit
 * writes requests, each with an `id`; the driver answers each one with the same `id`, and may at
 * any time write an event (no `id`) when its client's tool view changes by itself.
 */

/** Where the client under test finds the fixture. For stdio the client spawns it itself. */
export type DriverServer =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { transport: 'http'; url: string }

export type DriverRequest =
  | { id: number; op: 'connect'; server: DriverServer; options: DriverOptions }
  | { id: number; op: 'list' }
  | { id: number; op: 'call'; name: string; args: Record<string, unknown> }
  | { id: number; op: 'abort'; call: number }
  | { id: number; op: 'close' }
  | BeyondRequest

/**
 * Verbs beyond tools, each optional: a driver whose client lacks one answers
 * `{ok: false, unsupported: true, error}`, and declares the feature (`resources`, `prompts`,
 * `completions`) in its connect answer only when it supports its verbs. Lists answer the whole
 * list as the client gives it to its user (a client follows the pages itself).
 */
export type BeyondRequest =
  | { id: number; op: 'resources' }
  | { id: number; op: 'templates' }
  | { id: number; op: 'read'; uri: string }
  | { id: number; op: 'prompts' }
  | { id: number; op: 'prompt'; name: string; args: Record<string, string> }
  | { id: number; op: 'complete'; ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }; argument: { name: string; value: string } }
  /** Subscribe to a resource's updates as the client's user would; answered once the subscription is in place. */
  | { id: number; op: 'subscribe'; uri: string }
  /** End that subscription; answered once the client has let go of it. */
  | { id: number; op: 'unsubscribe'; uri: string }
  /** The URIs of the resource updates the client has told its user of since connect, in order: `{ updated: [uri, …] }`. */
  | { id: number; op: 'updates' }
  /** The server's `instructions` as the client hands them on (to its host or model): `{ instructions?: string }`. */
  | { id: number; op: 'instructions' }
  /** Change the roots the client offers to these, as its user would while it runs; answered once changed (and announced, if the client announces). */
  | { id: number; op: 'setRoots'; roots: Array<{ uri: string; name?: string }> }

/** What each beyond verb answers in `value`: the client's result as its user gets it (MCP shapes). */
export type BeyondOp = BeyondRequest['op']
export const BEYOND_OPS: readonly BeyondOp[] = ['resources', 'templates', 'read', 'prompts', 'prompt', 'complete', 'subscribe', 'unsubscribe', 'updates', 'instructions', 'setRoots']

/** Client settings the scenario asks for, in words every client has (each optional to honour). */
export interface DriverOptions {
  /** A per-call timeout, when the scenario is about one. */
  callTimeoutMs?: number
  /** How long connecting may take, when the scenario is about it. */
  connectTimeoutMs?: number
  /** OAuth, when the server needs it: a driver that declares `auth` honours it (FORMAT.md). */
  auth?: DriverAuth
  /**
   * What the client answers when the server asks for roots, sampling or elicitation: a driver whose
   * client supports one declares it (`roots`, `sampling`, `elicitation`) in its connect answer
   * and sets its client up to answer so; otherwise its client answers as it does unconfigured.
   */
  asks?: DriverAsks
}

/**
 * What the client authenticates with, its secret resolved by the kit (never a variable name to
 * look up). The grants name no client authentication method: a client picks it from the
 * authorization server's metadata, as the spec has it. `issuer` is the only authorization server
 * the credentials may be presented to. For `authorization_code` the driver plays the browser:
 * it fetches the authorization URL its client would open and follows the redirects to the
 * client's own redirect URI (the fixture approves at once), then hands the client the code.
 */
export type DriverAuth =
  | { grant: 'bearer'; token: string }
  | { grant: 'client_credentials'; clientId: string; clientSecret: string; issuer?: string; scope?: string }
  | { grant: 'private_key_jwt'; clientId: string; privateKey: string; algorithm: string; issuer?: string; scope?: string }
  | { grant: 'authorization_code'; clientId?: string; clientSecret?: string; issuer?: string; scope?: string }

/** A tool as the client would offer it to a model. */
export interface DriverTool {
  name: string
  /** The MCP name behind it, when the client offers another name (a prefix, say); default `name`. */
  rawName?: string
  description?: string
  inputSchema?: Record<string, unknown>
}

export interface DriverContentBlock {
  type: string
  text?: string
  mimeType?: string
  data?: string
}

export type DriverAnswer =
  | { id: number; ok: true; tools?: DriverTool[]; result?: DriverCallResult; features?: string[]; value?: Record<string, unknown> }
  | { id: number; ok: false; error: string; unsupported?: boolean; features?: string[] }

/** What a call gave the caller: the client's result, or (ok: false) the error it raised. */
export interface DriverCallResult {
  isError?: boolean
  content?: DriverContentBlock[]
  structuredContent?: unknown
}

export type DriverEvent = { event: 'tools'; tools: DriverTool[] } | { event: 'log'; text: string }

/** Pure: one line from the driver, or why it is not a protocol message. */
export function parseDriverLine(line: string): { answer: DriverAnswer } | { event: DriverEvent } | { invalid: string } {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return { invalid: `not JSON: ${line.slice(0, 200)}` }
  }
  if (typeof value !== 'object' || value === null) return { invalid: `not an object: ${line.slice(0, 200)}` }
  const v = value as Record<string, unknown>
  if (typeof v.id === 'number' && typeof v.ok === 'boolean') {
    if (!v.ok && typeof v.error !== 'string') return { invalid: `an error answer needs "error": a string: ${line.slice(0, 200)}` }
    if (v.tools !== undefined && !validTools(v.tools)) return { invalid: `"tools" must be an array of {name: string, …}: ${line.slice(0, 200)}` }
    if (v.features !== undefined && !(Array.isArray(v.features) && v.features.every((f) => typeof f === 'string'))) return { invalid: `"features" must be an array of strings, got ${JSON.stringify(v.features).slice(0, 100)}` }
    if (v.value !== undefined && (typeof v.value !== 'object' || v.value === null || Array.isArray(v.value))) return { invalid: `"value" must be an object, got ${JSON.stringify(v.value).slice(0, 100)}` }
    if (v.unsupported !== undefined && typeof v.unsupported !== 'boolean') return { invalid: `"unsupported" must be a boolean, got ${JSON.stringify(v.unsupported).slice(0, 100)}` }
    const problem = v.result === undefined ? undefined : resultProblem(v.result)
    if (problem) return { invalid: `"result" ${problem}` }
    return { answer: v as DriverAnswer }
  }
  if (v.event === 'tools' && validTools(v.tools)) return { event: v as DriverEvent }
  if (v.event === 'log' && typeof v.text === 'string') return { event: v as DriverEvent }
  return { invalid: `neither an answer ({id, ok}) nor an event: ${line.slice(0, 200)}` }
}

/** Pure: why a call's `result` is not {isError?: boolean, content?: [{type: string, text?: string, mimeType?: string, data?: string}], structuredContent?}, or undefined. */
function resultProblem(result: unknown): string | undefined {
  const show = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 100)
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return `must be an object, got ${show(result)}`
  const { isError, content } = result as { isError?: unknown; content?: unknown }
  if (isError !== undefined && typeof isError !== 'boolean') return `.isError must be a boolean, got ${show(isError)}`
  if (content === undefined) return undefined
  if (!Array.isArray(content)) return `.content must be an array of content blocks, got ${show(content)}`
  for (const [i, block] of content.entries()) {
    if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') return `.content[${i}] must be an object with a string "type", got ${show(block)}`
    for (const field of ['text', 'mimeType', 'data'] as const) {
      const value = (block as Record<string, unknown>)[field]
      if (value !== undefined && typeof value !== 'string') return `.content[${i}].${field} must be a string, got ${show(value)}`
    }
  }
  return undefined
}

function validTools(tools: unknown): tools is DriverTool[] {
  return Array.isArray(tools) && tools.every((t) => typeof t === 'object' && t !== null && typeof (t as DriverTool).name === 'string')
}
