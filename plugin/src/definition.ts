import type { LimitsConfig } from './config.ts'
import { toolSignature, type BridgedTool } from './discovery.ts'
import { BridgeError } from './errors.ts'
import type { ContentBlock, JsonSchema, ToolDefinition, ToolExecution, ToolResult } from './host-contract.ts'
import { admitImages, type ImageServices } from './image-admission.ts'
import { type CompiledSchema, jsonByteLength, jsonEqual, jsonFitsInBytes, quoteUntrusted, type Redact, redactSecrets, SchemaCompiler, uncheckedPatternsWarning } from '@mcp-bridge/process'
import { bridgeOutput, type BridgeOutput } from './output-contract.ts'
import { isImage, projectContent } from './projection.ts'
import type { GenerationEntry } from './tool-set.ts'

/** The canonical value of a successful call: protocol-complete blocks for programmatic callers. */
export interface McpResult {
  content: unknown[]
  structuredContent?: unknown
}

/** Sends one tools/call with the raw name (as a task, task-call.ts, when `asTask`); resolves to the server's result object. */
export type InvokeTool = (rawName: string, args: Record<string, unknown>, exec: ToolExecution, asTask: boolean) => Promise<unknown>

export interface DefinitionOptions {
  serverName: string
  invoke: InvokeTool
  limits: Pick<LimitsConfig, 'maxResultTextChars' | 'maxResultBytes'>
  imageServices: () => ImageServices
  warn: (message: string) => void
  /**
   * For the text of `isError` results and schema violation messages, which become error
   * messages: the violations quote instance paths, that is the server's (or the model's) keys.
   */
  redact?: Redact
  /** The generation's compiler: the outputSchema validator lives as long as the generation's definitions. */
  compiler?: SchemaCompiler
}

interface Staged {
  owner: BridgedDefinition
  value: McpResult
  fallback: string
  content: ContentBlock[]
}

/**
 * Rich projections are prepared during execute (which may do I/O) and handed to the registry
 * through finalizeContent, keyed by the exact execution so nothing leaks between calls (an
 * execution is one call of one tool; `owner` checks it anyway).
 */
const staged = new WeakMap<ToolExecution, Staged>()

/** Built lazily, on a tool's first call (or first read of `output`). */
interface Prepared {
  checkArgs: CompiledSchema
  checkStructured?: (value: McpResult) => void
}

/**
 * One bridged tool. A class with its behaviour on the prototype, not an object of closures: a
 * server with 10,000 tools costs 10,000 small records that share the generation's options, and
 * nothing is compiled until a tool is first called. Hosts call `execute` and `finalizeContent` as
 * methods, and read `source` and `output` as properties; both are built on demand.
 */
class BridgedDefinition implements ToolDefinition {
  readonly name: string
  readonly description: string
  readonly parameters: JsonSchema
  private readonly rawName: string
  private readonly outputSchema: JsonSchema | undefined
  private readonly asTask: true | undefined
  private readonly options: DefinitionOptions
  private prepared?: Prepared
  private builtOutput?: BridgeOutput

  constructor(tool: BridgedTool, options: DefinitionOptions) {
    this.name = tool.publicName
    this.description = tool.description
    this.parameters = tool.inputSchema
    this.rawName = tool.rawName
    this.outputSchema = tool.outputSchema
    this.asTask = tool.asTask
    this.options = options
  }

  /**
   * The tool's re-sync signature (discovery.ts), recomputed from what the definition keeps: the
   * tool set compares it on the next sync instead of holding a copy per tool (tool-set.ts).
   */
  get signature(): string {
    return toolSignature({ description: this.description, inputSchema: this.parameters, outputSchema: this.outputSchema, asTask: this.asTask })
  }

  /** Where the tool comes from, for hosts (permissions, UIs); a fresh object on every read. */
  get source(): { kind: 'mcp'; serverName: string; rawName: string } {
    return { kind: 'mcp', serverName: this.options.serverName, rawName: this.rawName }
  }

  /**
   * Built on first read: host/types.ts types `output` by the reference registry's contract alone,
   * and this one also carries what the harness' ToolRuntime needs (output-contract.ts).
   */
  get output(): BridgeOutput {
    return (this.builtOutput ??= bridgeOutput(this.outputSchema, (value) => this.render(value)))
  }

  async execute(args: unknown, exec: ToolExecution): Promise<McpResult> {
    const { options, rawName } = this
    const prepared = (this.prepared ??= this.prepare())
    checkArguments(prepared.checkArgs, this.name, args ?? {}, options)
    const input = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {}
    const value = toCanonical(await options.invoke(rawName, input, exec, this.asTask === true), rawName, options.limits, options.redact)
    prepared.checkStructured?.(value)
    if (value.content.some(isImage)) {
      const images = await admitImages(value.content, exec, options.imageServices())
      const content = projectContent(value.content, rawName, images, options.limits.maxResultTextChars)
      staged.set(exec, { owner: this, value, fallback: JSON.stringify(this.render(value)), content })
    }
    return value
  }

  finalizeContent(exec: ToolExecution, result: Readonly<ToolResult>): ContentBlock[] | undefined {
    const entry = staged.get(exec)
    if (!entry || entry.owner !== this) return undefined
    staged.delete(exec)
    if (result.isError) return undefined
    // A post-execute policy that replaced the value or the content stays authoritative. Compared
    // as JSON, not by identity: a host may hand back a frozen copy of the value (ToolRuntime does).
    try {
      return jsonEqual(result.value, entry.value) && JSON.stringify(result.content) === entry.fallback ? entry.content : undefined
    } catch {
      // A value too deep to compare is not proven unchanged.
      return undefined
    }
  }

  private render(value: unknown): ContentBlock[] {
    const { content, structuredContent } = value as McpResult
    return projectContent(visibleBlocks(content, structuredContent), this.rawName, undefined, this.options.limits.maxResultTextChars)
  }

  private prepare(): Prepared {
    const compiler = (this.options.compiler ??= new SchemaCompiler())
    const checkArgs = compiler.compile(this.parameters)
    // Once per schema object: the reference registry compiles the same inputSchema, and may have said it.
    const unchecked = uncheckedPatternsWarning(this.parameters, checkArgs, `tool "${this.name}": its inputSchema`)
    if (unchecked) this.options.warn(`${unchecked}; the server still checks its own inputs`)
    return { checkArgs, checkStructured: this.outputSchema && this.structuredValidator(this.outputSchema, compiler) }
  }

  /**
   * structuredContent is checked against the advertised outputSchema with a real validator. A
   * schema that does not compile leaves results unconstrained (with one warning). A declared
   * schema with no structuredContent is accepted: many servers answer in text only, and refusing
   * would hide it.
   */
  private structuredValidator(schema: JsonSchema, compiler: SchemaCompiler): ((value: McpResult) => void) | undefined {
    const compiled = compiler.compile(schema)
    const { rawName, options } = this
    if (!compiled.ok) {
      options.warn(`outputSchema of "${rawName}" cannot be compiled, results are not checked against it: ${compiled.reason}`)
      return undefined
    }
    const unchecked = uncheckedPatternsWarning(schema, compiled, `tool "${this.name}": its outputSchema`)
    if (unchecked) options.warn(unchecked)
    let warnedMissing = false
    return (value) => {
      if (value.structuredContent === undefined) {
        if (!warnedMissing) options.warn(`"${rawName}" declares an outputSchema but returned no structuredContent`)
        warnedMissing = true
        return
      }
      const violations = compiled.validate(value.structuredContent)
      if (violations.length) {
        const message = `${rawName} returned structuredContent that does not match its outputSchema: ${violations.join('; ')}`
        throw new BridgeError(boundedMessage(message, options), 'INVALID_RESULT')
      }
    }
  }
}

/**
 * A planned tool as its generation's entry (tool-set.ts). One record per tool and no closures,
 * and the signature is computed only when asked: a swap asks only for tools that are registered
 * already, so a first sync of 10,000 tools stringifies no schema.
 */
export class PlannedTool implements GenerationEntry {
  constructor(
    private readonly tool: BridgedTool,
    private readonly options: DefinitionOptions,
  ) {}

  get name(): string {
    return this.tool.publicName
  }

  get signature(): string {
    return toolSignature(this.tool)
  }

  create(): ToolDefinition {
    return new BridgedDefinition(this.tool, this.options)
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
  // "true" as a string is neither an error nor a success the bridge could vouch for.
  if (isError !== undefined && typeof isError !== 'boolean') {
    throw new BridgeError(`${rawName} returned "isError" that is not a boolean (${isError === null ? 'null' : typeof isError}): whether the call failed is unknown`, 'INVALID_RESULT')
  }
  // Measured, never re-serialised (json-size.ts): most results clear the limit on a bound that
  // reads no text, and only one that fails is counted whole, for the message.
  if (!jsonFitsInBytes(result, maxResultBytes)) {
    const what = isError === true ? 'an error result of' : ''
    throw new BridgeError(`${rawName} returned ${what}${what ? ' ' : ''}${jsonByteLength(result)} bytes, over limits.maxResultBytes (${maxResultBytes})`, 'INVALID_RESULT')
  }
  const blocks = content ?? []
  if (isError === true) {
    const text = projectContent(visibleBlocks(blocks, structuredContent), rawName)
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('\n')
    throw new BridgeError(quoteUntrusted(text, maxResultTextChars, redact), 'TOOL_ERROR')
  }
  return structuredContent === undefined ? { content: blocks } : { content: blocks, structuredContent }
}

/**
 * The blocks the model is shown of a result, error results included: its content, or, when it has
 * none, its structuredContent as JSON text. A server that answers in structuredContent alone (it
 * SHOULD add the JSON as text, MCP 2025-06-18 §tools/Structured Content) would otherwise show the
 * model nothing of its answer, or of why the call failed. Bounded like any text: the result's size
 * by `maxResultBytes` first, the text by `maxResultTextChars` where it is projected.
 */
function visibleBlocks(content: unknown[], structuredContent: unknown): unknown[] {
  return content.length === 0 && structuredContent !== undefined ? [{ type: 'text', text: JSON.stringify(structuredContent) }] : content
}

/**
 * The arguments are checked against the tool's inputSchema before anything is sent. The reference
 * registry checks them too, first; the harness' ToolRuntime does not, and a bridge must never
 * forward arguments its tool does not accept. Compiled on the first call, by the generation's
 * compiler, like the registry's own check; a schema that does not compile refuses every call, as
 * the registry does.
 */
function checkArguments(compiled: CompiledSchema, publicName: string, args: unknown, options: DefinitionOptions): void {
  if (!compiled.ok) throw new BridgeError(`"${publicName}" cannot be called: its parameters schema does not compile (${compiled.reason})`, 'INVALID_ARGS')
  const violations = compiled.validate(args)
  if (violations.length) throw new BridgeError(boundedMessage(`invalid arguments for "${publicName}": ${violations.join('; ')}`, options), 'INVALID_ARGS')
}

/**
 * A violation message as the model and the logs get it: redacted like an error result's text
 * (a key of the data may be a token) and cut at `limits.maxResultTextChars`. The list itself is
 * bounded already (json-schema.ts); this is the host's own limit on top.
 */
function boundedMessage(message: string, options: DefinitionOptions): string {
  return quoteUntrusted(message, options.limits.maxResultTextChars, options.redact ?? redactSecrets)
}
