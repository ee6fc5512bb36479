/**
 * Pure verdict on the x-mcp-header annotations of the tools a modern server lists (./header-rules.ts).
 * The schemas are untrusted: the walk is bounded in depth and in annotations kept.
 */
import type { CheckResult } from '../../model.ts'
import { isObject, list, show } from '../check.ts'
import type { ModernRevision } from '../spec.ts'
import type { RpcOutcome } from '../wire/types.ts'
import { X_MCP_HEADER } from './header-rules.ts'
import { modernJudge } from './judge.ts'

/** RFC 9110 section 5.6.2: token = 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u001f\u007f]/
const PRIMITIVE = ['integer', 'string', 'boolean']
/** Deeper than any real inputSchema; a schema nested past it is not walked further. */
const MAX_DEPTH = 32
const MAX_ANNOTATIONS = 1_000

interface Annotation {
  tool: string
  /** JSON-pointer-like path from the inputSchema's root to the annotated schema. */
  path: string[]
  value: unknown
  schema: Record<string, unknown>
}

function collect(tool: string, schema: unknown, path: string[], out: Annotation[]): void {
  if (!isObject(schema) || path.length > MAX_DEPTH || out.length >= MAX_ANNOTATIONS) return
  if ('x-mcp-header' in schema) out.push({ tool, path, value: schema['x-mcp-header'], schema })
  for (const [key, value] of Object.entries(schema)) {
    if (Array.isArray(value)) value.forEach((item, i) => collect(tool, item, [...path, key, String(i)], out))
    else if (isObject(value)) collect(tool, value, [...path, key], out)
  }
}

/** Reached from the root through `properties` keys alone: properties/a/properties/b… */
function reachable(path: string[]): boolean {
  return path.length >= 2 && path.length % 2 === 0 && path.every((segment, i) => i % 2 === 1 || segment === 'properties')
}

/** The case of the first constraint an annotation breaks, with what is wrong, or undefined. */
function broken(a: Annotation): [string | undefined, string] | undefined {
  const v = a.value
  if (v === '') return [undefined, 'is empty']
  if (typeof v === 'string' && CONTROL.test(v)) return ['control', `${show(v, 40)} contains a control character`]
  if (typeof v !== 'string' || !TOKEN.test(v)) return ['token', `${show(v, 40)} is not an HTTP token (1*tchar)`]
  if (!reachable(a.path)) return ['reachable', `sits at ${show(a.path.join('/'), 80)}, not under properties alone`]
  const type = a.schema.type
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type]
  if (types.some((t) => !PRIMITIVE.includes(t as string))) return ['primitive', `is on a parameter of type ${show(type, 40)}, not integer, string or boolean`]
  return undefined
}

export function judgeXMcpHeader(tools: RpcOutcome | undefined, revision?: ModernRevision): CheckResult {
  const j = modernJudge(X_MCP_HEADER, revision)
  const listed = tools?.kind === 'result' && isObject(tools.result) && Array.isArray(tools.result.tools) ? (tools.result.tools as unknown[]) : undefined
  if (!listed) return j.skip(`Not testable: no tools/list result to read${tools ? '; modern/lists reports why' : ' (tools not declared)'}`)
  const problems: [string | undefined, string][] = []
  let annotations = 0
  for (const tool of listed) {
    if (!isObject(tool)) continue
    const name = show(tool.name, 60)
    const found: Annotation[] = []
    collect(name, tool.inputSchema, [], found)
    annotations += found.length
    for (const a of found) {
      const b = broken(a)
      if (b) problems.push([b[0], `tool ${name}: x-mcp-header ${b[1]}`])
    }
    const seen = new Map<string, unknown>()
    for (const a of found) {
      if (typeof a.value !== 'string' || a.value === '') continue
      const k = a.value.toLowerCase()
      if (seen.has(k)) problems.push(['unique', `tool ${name}: x-mcp-header ${show(a.value, 40)} repeats ${show(seen.get(k), 40)} (ignoring case)`])
      else seen.set(k, a.value)
    }
  }
  const first = problems[0]
  if (first) return j.breach(list(problems.map((p) => p[1]), 3), { wire: tools!.wire, details: { problems: problems.slice(0, 20).map((p) => p[1]) } }, first[0])
  if (annotations === 0) return j.skip(`nothing to judge: none of the ${listed.length} tools marks a parameter with x-mcp-header`)
  return j.pass(`${annotations} x-mcp-header annotations, each a unique HTTP token on a primitive parameter reached through properties`)
}
