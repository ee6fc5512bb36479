import type { LimitsConfig } from './config.ts'
import type { BridgedTool } from './discovery.ts'
import { BridgeError } from './errors.ts'
import type { ContentBlock, ToolDefinition, ToolExecution } from './host/types.ts'
import { admitImages, type ImageServices } from './image-admission.ts'
import { jsonEqual } from './json-equal.ts'
import { SchemaCompiler } from './json-schema.ts'
import { bridgeOutput } from './output-contract.ts'
import { isImage, projectContent } from './projection.ts'
import { quoteUntrusted, redactSecrets, type Redact } from './redact.ts'

/** The canonical value of a successful call: protocol-complete blocks for programmatic callers. */
export interface McpResult {
  content: unknown[]
  structuredContent?: unknown
}

/** Sends one tools/call with the raw name; resolves to the server's result object. */
export type InvokeTool = (rawName: string, args: Record<string, unknown>, exec: ToolExecution) => Promise<unknown>

export interface DefinitionOptions {
  serverName: string
  invoke: InvokeTool
  limits: Pick<LimitsConfig, 'maxResultTextChars' | 'maxResultBytes'>
  imageServices: () => ImageServices
  warn: (message: string) => void
  /** For the text of `isError` results, which becomes an error message. */
  redact?: Redact
  /** The generation's compiler: the outputSchema validator lives as long as the generation's definitions. */
  compiler?: SchemaCompiler
}

interface Staged {
  value: McpResult
  fallback: string
  content: ContentBlock[]
}

export function createDefinition(tool: BridgedTool, options: DefinitionOptions): ToolDefinition {
  const { rawName } = tool
  const { limits } = options
  const render = (value: unknown) => projectContent((value as McpResult).content, rawName, undefined, limits.maxResultTextChars)
  const compiler = options.compiler ?? new SchemaCompiler()
  const checkStructured = structuredValidator(tool, options.warn, compiler)
  const checkArgs = argumentsValidator(tool, compiler)
  // Rich projections are prepared during execute (which may do I/O) and handed to the registry
  // through finalizeContent, keyed by the exact execution so nothing leaks between calls.
  const staged = new WeakMap<ToolExecution, Staged>()
  // Built apart from the literal below: host/types.ts types `output` by the reference registry's
  // contract alone, and this one also carries what the harness' ToolRuntime needs (output-contract.ts).
  const output = bridgeOutput(tool.outputSchema, render)
  return {
    name: tool.publicName,
    description: tool.description,
    parameters: tool.inputSchema,
    source: { kind: 'mcp', serverName: options.serverName, rawName },
    async execute(args, exec) {
      checkArgs(args ?? {})
      const input = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {}
      const value = toCanonical(await options.invoke(rawName, input, exec), rawName, limits, options.redact)
      checkStructured(value)
      if (value.content.some(isImage)) {
        const images = await admitImages(value.content, exec, options.imageServices())
        const content = projectContent(value.content, rawName, images, limits.maxResultTextChars)
        staged.set(exec, { value, fallback: JSON.stringify(render(value)), content })
      }
      return value
    },
    output,
    finalizeContent(exec, result) {
      const entry = staged.get(exec)
      staged.delete(exec)
      if (!entry || result.isError) return undefined
      // A post-execute policy that replaced the value or the content stays authoritative. Compared
      // as JSON, not by identity: a host may hand back a frozen copy of the value (ToolRuntime does).
      try {
        return jsonEqual(result.value, entry.value) && JSON.stringify(result.content) === entry.fallback ? entry.content : undefined
      } catch {
        // A value too deep to compare is not proven unchanged.
        return undefined
      }
    },
  }
}

/**
 * Validates the result's outer shape and size; `isError` rejects before anything else happens to
 * it. An error result obeys the same limits as a result: over `maxResultBytes` it is refused, and
 * its text (which becomes an error message, shown to the model and often logged) is redacted and
 * cut at `maxResultTextChars` with a notice.
 */
export function toCanonical(
  result: unknown,
  rawName: string,
  limits: Partial<Pick<LimitsConfig, 'maxResultTextChars' | 'maxResultBytes'>> = {},
  redact: Redact = redactSecrets,
): McpResult {
  const { maxResultBytes = Infinity, maxResultTextChars = Infinity } = limits
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new BridgeError(`${rawName} returned a result that is not an object`, 'INVALID_RESULT')
  }
  const { content, structuredContent, isError } = result as Record<string, unknown>
  if (content !== undefined && !Array.isArray(content)) {
    throw new BridgeError(`${rawName} returned "content" that is not an array`, 'INVALID_RESULT')
  }
  if (Number.isFinite(maxResultBytes)) {
    const size = Buffer.byteLength(JSON.stringify(result))
    if (size > maxResultBytes) {
      const what = isError === true ? 'an error result of' : ''
      throw new BridgeError(`${rawName} returned ${what}${what ? ' ' : ''}${size} bytes, over limits.maxResultBytes (${maxResultBytes})`, 'INVALID_RESULT')
    }
  }
  const blocks = content ?? []
  if (isError === true) {
    const text = projectContent(blocks, rawName)
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('\n')
    throw new BridgeError(quoteUntrusted(text, maxResultTextChars, redact), 'TOOL_ERROR')
  }
  return structuredContent === undefined ? { content: blocks } : { content: blocks, structuredContent }
}

/**
 * The arguments are checked against the tool's inputSchema before anything is sent. The reference
 * registry checks them too, first; the harness' ToolRuntime does not, and a bridge must never
 * forward arguments its tool does not accept. Compiled on the first call, by the generation's
 * compiler, like the registry's own check; a schema that does not compile refuses every call, as
 * the registry does.
 */
function argumentsValidator(tool: BridgedTool, compiler: SchemaCompiler): (args: unknown) => void {
  let compiled: ReturnType<SchemaCompiler['compile']> | undefined
  return (args) => {
    compiled ??= compiler.compile(tool.inputSchema)
    if (!compiled.ok) throw new BridgeError(`"${tool.publicName}" cannot be called: its parameters schema does not compile (${compiled.reason})`, 'INVALID_ARGS')
    const violations = compiled.validate(args)
    if (violations.length) throw new BridgeError(`invalid arguments for "${tool.publicName}": ${violations.join('; ')}`, 'INVALID_ARGS')
  }
}

/**
 * structuredContent is checked against the advertised outputSchema with a real validator. A schema
 * that does not compile leaves results unconstrained (with one warning). A declared schema with no
 * structuredContent is accepted: many servers answer in text only, and refusing would hide it.
 */
function structuredValidator(tool: BridgedTool, warn: (message: string) => void, compiler: SchemaCompiler): (value: McpResult) => void {
  if (!tool.outputSchema) return () => {}
  const compiled = compiler.compile(tool.outputSchema)
  if (!compiled.ok) {
    warn(`outputSchema of "${tool.rawName}" cannot be compiled, results are not checked against it: ${compiled.reason}`)
    return () => {}
  }
  let warnedMissing = false
  return (value) => {
    if (value.structuredContent === undefined) {
      if (!warnedMissing) warn(`"${tool.rawName}" declares an outputSchema but returned no structuredContent`)
      warnedMissing = true
      return
    }
    const violations = compiled.validate(value.structuredContent)
    if (violations.length) {
      throw new BridgeError(`${tool.rawName} returned structuredContent that does not match its outputSchema: ${violations.join('; ')}`, 'INVALID_RESULT')
    }
  }
}
