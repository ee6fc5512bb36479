import { isRecord } from '@mcp-bridge/process'

/**
 * Pure. SEP-2243 custom headers (MCP 2026-07-28, basic/transports/streamable-http "Custom Headers
 * from Tool Parameters"): "When a server's tool definition includes `x-mcp-header` annotations,
 * conforming clients MUST mirror the designated parameter values into HTTP headers", and "Clients
 * using the Streamable HTTP transport MUST reject tool definitions where any `x-mcp-header` value
 * violates these constraints. Rejection means the client MUST exclude the invalid tool from the
 * result of `tools/list`." The SDK client does both only inside its own listTools/callTool, which
 * the bridge cannot use (session.ts says why), and does not export the rule: it lives here.
 */

/** One annotated parameter: where its value sits in the arguments, and the header's name part. */
export interface ParamHeader {
  /** The chain of `properties` keys from the schema root to the parameter. */
  path: string[]
  name: string
}

export type HeaderScan = { ok: true; headers: ParamHeader[] } | { ok: false; reason: string }

const ANNOTATION = 'x-mcp-header'
export const PARAM_HEADER_PREFIX = 'Mcp-Param-'

/** "MUST match HTTP field-name token syntax (`1*tchar`, RFC 9110 Section 5.1)". */
// The apostrophe and the backtick as escapes: a literal's quote marks would confuse source scanners.
const TOKEN = /^[!#$%&\x27*+\-.^_\x60|~0-9A-Za-z]+$/
/** "MUST only be applied to parameters with primitive types (integer, string, boolean). Parameters with type `number` are not permitted." */
const PRIMITIVE = new Set(['integer', 'string', 'boolean'])

/**
 * JSON Schema keywords whose values are subschemas reached other than through `properties`: "The
 * chain MUST NOT pass through `items` (or any other array keyword), composition keywords (`oneOf`,
 * `anyOf`, `allOf`, `not`), conditional keywords (`if`/`then`/`else`), or `$ref`". An annotation
 * below one of them makes the tool invalid, so they are searched too. Other keywords (default,
 * const, enum, examples) hold instances, not schemas, and are not searched.
 */
const SINGLE = ['items', 'additionalItems', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'not', 'if', 'then', 'else']
const LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf']
const MAPS = ['patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions']

/** At most this many characters of a server's header name go into a reason (which is quoted later). */
const SHOWN_CHARS = 60

/** A path as a chain to its parent: extending one costs the same at any depth. */
interface Step {
  key: string
  parent?: Step
}

function pathOf(step: Step | undefined): string[] {
  const path: string[] = []
  for (let at = step; at; at = at.parent) path.push(at.key)
  return path.reverse()
}

/**
 * The annotations of one tool's inputSchema, or why the tool is invalid. The walk uses its own
 * stack, not recursion, and shares path prefixes: the schema is the server's, and its depth is
 * bounded only by the bytes, so the work stays linear in its size.
 */
export function scanParamHeaders(inputSchema: unknown): HeaderScan {
  const headers: ParamHeader[] = []
  const seen = new Map<string, string>()
  const stack: Array<{ node: unknown; at?: Step; reachable: boolean }> = [{ node: inputSchema, reachable: true }]
  while (stack.length > 0) {
    const { node, at, reachable } = stack.pop()!
    if (!isRecord(node)) continue
    if (ANNOTATION in node) {
      const path = pathOf(at)
      const fault = annotationFault(node, path, reachable)
      if (fault) return { ok: false, reason: fault }
      const name = node[ANNOTATION] as string
      const earlier = seen.get(name.toLowerCase())
      // "MUST be case-insensitively unique among all `x-mcp-header` values in the `inputSchema`".
      if (earlier !== undefined) return { ok: false, reason: `x-mcp-header "${show(name)}" repeats "${show(earlier)}" (header names ignore case)` }
      seen.set(name.toLowerCase(), name)
      headers.push({ path, name })
    }
    const below = (key: string, child: unknown, stillReachable: boolean) => stack.push({ node: child, at: { key, parent: at }, reachable: stillReachable })
    if (isRecord(node.properties)) for (const [key, child] of Object.entries(node.properties)) below(key, child, reachable)
    for (const key of SINGLE) if (key in node) below(key, node[key], false)
    for (const key of LISTS) if (Array.isArray(node[key])) for (const child of node[key] as unknown[]) below(key, child, false)
    for (const key of MAPS) if (isRecord(node[key])) for (const child of Object.values(node[key])) below(key, child, false)
  }
  // The walk pops last-in first: put the headers back in the schema's own order.
  return { ok: true, headers: headers.reverse() }
}

/** The first constraint of "Schema Extension" that one annotated schema breaks. */
function annotationFault(node: Record<string, unknown>, path: string[], reachable: boolean): string | undefined {
  const value = node[ANNOTATION]
  const where = path.length === 0 ? 'the schema root' : `parameter "${show(path.join('.'))}"`
  if (!reachable || path.length === 0) return `x-mcp-header on ${where}, which is not reached from the root through "properties" alone`
  if (typeof value !== 'string' || value === '') return `x-mcp-header on ${where} is ${value === '' ? 'empty' : 'not a string'}`
  if (!TOKEN.test(value)) return `x-mcp-header "${show(value)}" on ${where} is not an HTTP token (letters, digits and the symbols RFC 9110 allows in a field name only)`
  const type = node.type
  if (typeof type !== 'string' || !PRIMITIVE.has(type)) return `x-mcp-header on ${where}, whose type is ${typeof type === 'string' ? `"${show(type)}"` : 'not one type'}: only integer, string and boolean parameters may be mirrored`
  return undefined
}

/**
 * The Mcp-Param-* headers of one tools/call ("Client Behavior", steps 3 to 5): each annotated
 * parameter's value, read at its exact property path, converted and encoded. "If no value is
 * present at that path in the call arguments, the header is omitted"; so is a value that is not a
 * primitive (the server, which validates the body, answers for it), and an integer outside the
 * safe range ("Integer values MUST be within the safe range for JavaScript").
 */
export function paramHeaders(headers: readonly ParamHeader[], args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const { path, name } of headers) {
    const text = headerText(valueAt(args, path))
    if (text !== undefined) out[`${PARAM_HEADER_PREFIX}${name}`] = encodeHeaderValue(text)
  }
  return out
}

function valueAt(args: unknown, path: string[]): unknown {
  let node = args
  for (const key of path) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined
    node = node[key]
  }
  return node
}

/** "Type conversion": strings as they are, integers in decimal, booleans as "true" or "false". */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value)
  return undefined
}

const SENTINEL_START = '=?base64?'
const SENTINEL_END = '?='

/**
 * "Value Encoding": a value that is not a plain ASCII header value ("non-ASCII characters, control
 * characters, or has leading/trailing whitespace") is sent as `=?base64?{Base64 of its UTF-8}?=`;
 * so is one that already looks like that sentinel ("To avoid ambiguity, clients MUST also
 * Base64-encode any plain-ASCII value that matches the sentinel pattern"). An empty value is
 * encoded too: an empty header field is easily dropped on its way, and "=?base64??=" decodes to
 * the empty string at any conforming server.
 */
export function encodeHeaderValue(value: string): string {
  const plain = value !== '' && /^[\x20-\x7e\t]*$/.test(value) && value.trim() === value && !(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END))
  return plain ? value : `${SENTINEL_START}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_END}`
}

function show(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text
}

/** A listing with its invalid tools taken out, and the annotated parameters of those kept, by raw name. */
export interface CheckedListing {
  tools: unknown[]
  excluded: Array<{ name: string; reason: string }>
  headers: Map<string, ParamHeader[]>
}

/**
 * Takes out of a drained tools/list the tools whose annotations break the constraints ("This
 * ensures that a single malformed tool definition does not prevent other valid tools from being
 * used"). Entries that are not tools with a string name pass through untouched: judging them is
 * discovery.ts's job.
 */
export function checkListing(tools: readonly unknown[]): CheckedListing {
  const kept: unknown[] = []
  const excluded: CheckedListing['excluded'] = []
  const headers = new Map<string, ParamHeader[]>()
  for (const tool of tools) {
    const name = isRecord(tool) && typeof tool.name === 'string' ? tool.name : undefined
    const scan = name === undefined ? undefined : scanParamHeaders((tool as { inputSchema?: unknown }).inputSchema)
    if (scan && !scan.ok) {
      excluded.push({ name: name!, reason: scan.reason })
      continue
    }
    if (scan && scan.headers.length > 0) headers.set(name!, scan.headers)
    kept.push(tool)
  }
  return { tools: kept, excluded, headers }
}
