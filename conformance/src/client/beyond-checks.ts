import { createHash } from 'node:crypto'
import type { WireEntry } from '@mcp-bridge/fixtures-server'
import type { BeyondAsk } from './adapter.ts'

/**
 * Pure: what the kit judges of a verb beyond tools (resources, prompts, completions), from the
 * client's answer and from the wire the verb caused. The answer is the driver's, so untrusted:
 * every shape is checked before it is read, and every quoted value is bounded.
 */
export interface BeyondExpect {
  items?: string[]
  text?: string
  length?: number
  sha256?: string
  values?: string[]
  refused?: boolean
}

/**
 * The MCP method each verb sends, and the server capability it needs (basic/lifecycle §Operation);
 * `updates` and `instructions` ask the client what it holds and send nothing; `setRoots` sends a
 * notification, judged by its own step (run/steps/set-roots.ts).
 */
export const VERB_WIRE: Record<Exclude<BeyondAsk['op'], 'updates' | 'instructions' | 'setRoots'>, { method: string; capability: string }> = {
  resources: { method: 'resources/list', capability: 'resources' },
  templates: { method: 'resources/templates/list', capability: 'resources' },
  read: { method: 'resources/read', capability: 'resources' },
  prompts: { method: 'prompts/list', capability: 'prompts' },
  prompt: { method: 'prompts/get', capability: 'prompts' },
  complete: { method: 'completion/complete', capability: 'completions' },
  subscribe: { method: 'resources/subscribe', capability: 'resources' },
  unsubscribe: { method: 'resources/unsubscribe', capability: 'resources' },
}

const show = (value: unknown, max = 120) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > max ? `${text.slice(0, max)}…` : text
}
const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined)
const strings = (values: unknown[]): string[] => values.filter((v): v is string => typeof v === 'string')

/** The items a list verb answered: URIs, URI templates or prompt names; for `updates`, the URIs heard, in order. */
export function listedItems(op: BeyondAsk['op'], value: Record<string, unknown>): string[] | undefined {
  if (op === 'updates') return Array.isArray(value.updated) ? strings(value.updated) : undefined
  const [key, name] = op === 'resources' ? ['resources', 'uri'] : op === 'templates' ? ['resourceTemplates', 'uriTemplate'] : op === 'prompts' ? ['prompts', 'name'] : []
  if (!key || !Array.isArray(value[key])) return undefined
  return strings(array(value[key]).map((item) => field(item, name!)))
}

/** The text of an answer: a read's text contents, a prompt's message texts, joined by newlines; the instructions handed on. */
export function answerText(op: BeyondAsk['op'], value: Record<string, unknown>): string {
  if (op === 'instructions') return typeof value.instructions === 'string' ? value.instructions : ''
  if (op === 'read') return strings(array(value.contents).map((c) => field(c, 'text'))).join('\n')
  if (op === 'prompt') return strings(array(value.messages).map((m) => field(field(m, 'content'), 'text'))).join('\n')
  return ''
}

/** SHA-256 (hex) of a read's blob contents, decoded from base64 and concatenated; undefined when there is no blob. */
export function blobDigest(value: Record<string, unknown>): string | undefined {
  const blobs = strings(array(value.contents).map((c) => field(c, 'blob')))
  if (!blobs.length) return undefined
  return createHash('sha256').update(Buffer.concat(blobs.map((b) => Buffer.from(b, 'base64')))).digest('hex')
}

/** How the client's answer differs from what the scenario expects; empty when it matches. */
export function beyondMismatches(op: BeyondAsk['op'], outcome: { ok: true; value: Record<string, unknown> } | { ok: false; error: string }, expect: BeyondExpect): string[] {
  if (!outcome.ok) return expect.refused ? [] : [`the client answered an error: ${show(outcome.error, 200)}`]
  if (expect.refused) return ['the client answered a result where a refusal was expected']
  const { value } = outcome
  const problems: string[] = []
  if (expect.items && op === 'updates') {
    const got = listedItems(op, value)
    // Updates are events: their order and their number are what the client told its user.
    if (!got) problems.push(`no updates in the answer: ${show(value)}`)
    else if (show(got, 1e6) !== show(expect.items, 1e6)) problems.push(`heard updates for ${show(got, 300)}, expected ${show(expect.items, 300)}, in this order`)
  } else if (expect.items) {
    const got = listedItems(op, value)
    const want = [...expect.items].sort()
    if (!got) problems.push(`no list in the answer: ${show(value)}`)
    else if (show([...got].sort(), 1e6) !== show(want, 1e6)) {
      const missing = want.filter((item) => !got.includes(item))
      const extra = got.filter((item) => !want.includes(item))
      problems.push(`listed ${got.length} of ${want.length}${missing.length ? `; missing ${show(missing)}` : ''}${extra.length ? `; unexpected ${show(extra)}` : ''}${got.length !== new Set(got).size ? '; some listed twice' : ''}`)
    }
  }
  const text = answerText(op, value)
  if (expect.text !== undefined && !new RegExp(expect.text).test(text)) problems.push(`text ${show(text)} does not match /${expect.text}/`)
  if (expect.length !== undefined && text.length !== expect.length) problems.push(`${text.length} characters of text, expected ${expect.length}`)
  if (expect.sha256 !== undefined) {
    const digest = blobDigest(value)
    if (digest !== expect.sha256) problems.push(digest ? `the blob decodes to other bytes (sha256 ${digest.slice(0, 16)}…, expected ${expect.sha256.slice(0, 16)}…)` : `no blob in the answer: ${show(value)}`)
  }
  if (expect.values) {
    const got = array(field(value.completion, 'values'))
    if (show(got, 1e6) !== show(expect.values, 1e6)) problems.push(`completion values ${show(got)}, expected ${show(expect.values)}`)
  }
  return problems
}

type Message = { method?: string; id?: unknown; params?: Record<string, unknown>; result?: Record<string, unknown> }
const requests = (wire: WireEntry[], method: string) => wire.filter(({ dir, msg }) => dir === 'recv' && (msg as Message).method === method && (msg as Message).id !== undefined).map(({ msg }) => msg as Message)

/**
 * Cursors the client sent for `method` in `slice` that the server never handed out as a
 * nextCursor of that method before: parsed, modified or made up. `{sent}`: how many cursors were sent.
 */
export function cursorProblems(wire: WireEntry[], slice: WireEntry[], method: string): { sent: number; problems: string[] } {
  const served = new Set<string>()
  const pending = new Set<unknown>()
  const inSlice = new Set(slice)
  const problems: string[] = []
  let sent = 0
  for (const entry of wire) {
    const m = entry.msg as Message
    if (entry.dir === 'recv' && m.method === method && m.id !== undefined) {
      pending.add(m.id)
      const cursor = m.params?.cursor
      if (cursor === undefined || !inSlice.has(entry)) continue
      sent++
      if (typeof cursor !== 'string' || !served.has(cursor)) problems.push(`${method} with cursor ${show(cursor, 60)}, which the server never gave as a nextCursor`)
    } else if (entry.dir === 'send' && m.result && pending.has(m.id)) {
      pending.delete(m.id)
      if (typeof m.result.nextCursor === 'string') served.add(m.result.nextCursor)
    }
  }
  return { sent, problems }
}

/** The server's declared capabilities (initialize or server/discover answer), or undefined before any. */
export function serverCapabilities(wire: WireEntry[]): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined
  for (const { dir, msg } of wire) {
    const capabilities = field((msg as Message).result, 'capabilities')
    if (dir === 'send' && typeof capabilities === 'object' && capabilities !== null) found = capabilities as Record<string, unknown>
  }
  return found
}

/** Requests for `method` in `slice` while the server had not declared `capability`. */
export function undeclaredUses(wire: WireEntry[], slice: WireEntry[], method: string, capability: string): { sent: number; problems: string[] } {
  const sent = requests(slice, method).length
  const declared = serverCapabilities(wire)
  if (!sent || !declared || declared[capability] !== undefined) return { sent, problems: [] }
  return { sent, problems: [`${sent} ${method} request(s), though the server declared no "${capability}" capability (it declared ${show(Object.keys(declared))})`] }
}

/** prompts/get requests in `slice` whose arguments are not all strings (the schema's `{ [key: string]: string }`), and how they differ from those asked. */
export function promptArgumentProblems(slice: WireEntry[], asked: Record<string, string>): { sent: number; problems: string[]; notes: string[] } {
  const sent = requests(slice, 'prompts/get')
  const problems: string[] = []
  const notes: string[] = []
  for (const request of sent) {
    const args = request.params?.arguments
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) problems.push(`arguments ${show(args)} is not an object of strings`)
    for (const [name, value] of Object.entries((args ?? {}) as Record<string, unknown>)) if (typeof value !== 'string') problems.push(`argument ${show(name)} is ${show(value)}, not a string`)
    if (show(sortKeys(args ?? {}), 1e6) !== show(sortKeys(asked), 1e6)) notes.push(`sent arguments ${show(args)} where ${show(asked)} were asked`)
  }
  return { sent: sent.length, problems, notes }
}

/** resources/read requests in `slice` whose URI is not exactly the one asked. */
export function readUriProblems(slice: WireEntry[], uri: string): { sent: number; problems: string[] } {
  const sent = requests(slice, 'resources/read')
  return { sent: sent.length, problems: sent.filter((r) => r.params?.uri !== uri).map((r) => `read ${show(r.params?.uri)} where ${show(uri)} was listed and asked`) }
}

function sortKeys(value: unknown): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value
}
