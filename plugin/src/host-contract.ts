/** Contracts of the host services the plugin consumes. Hosts with their own registry implement these shapes. */
// The reference keeps cordis in the emitted declarations: without it, a consumer's compiler may
// take the augmentation below for the whole of cordis (its Context would lose `plugin`, `on`...).
/// <reference types="cordis" preserve="true" />
import type {} from 'cordis'
import type { McpElicitationService, McpSamplingService } from './asks/contract.ts'
import type { McpAuthService } from './oauth/contract.ts'

export type * from './asks/contract.ts'
export type * from './oauth/contract.ts'

declare module 'cordis' {
  interface Context {
    tools: ToolsService
    attachments: AttachmentsService
    llm: ModelInfoService
    mcpAuth: McpAuthService
    mcpElicitation: McpElicitationService
    mcpSampling: McpSamplingService
  }
  interface Events {
    /** Fired by the reference registry once per batch of changes, after the batch: never mid-swap. */
    'tools/change'(names: string[]): void
    /** Fired by each bridge instance whenever its connection state changes (and once as it starts). */
    'mcp/state'(event: McpStateEvent): void
  }
}

/** Where a bridge instance's connection stands. */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'connected'; server: string }
  | { kind: 'reconnecting'; attempt: number; maxAttempts: number; delayMs: number }
  | { kind: 'stopped'; reason: string }
  | { kind: 'disposed' }

/** A bridge instance's connection, as it changes: what hosts, dashboards and the kit follow. */
export interface McpStateEvent {
  /** The instance's serverName (unique among the live instances of one host). */
  serverName: string
  /** connecting, connected, reconnecting (attempt, delay), stopped (why) or disposed. */
  state: ConnectionState
  /** The live stdio child's pid, for process accounting; undefined over HTTP and between children. */
  pid?: number
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }
export type JsonSchema = Record<string, unknown>

/** A durable reference to an image persisted by the `attachments` service. */
export interface ImageRef {
  attachmentId: string
  mediaType: string
  bytes: number
}

export type ContentBlock = { type: 'text'; text: string } | { type: 'image'; attachment: ImageRef }

/** The provider and model a call is made for; decides whether images may enter model context. */
export interface ModelRoute {
  provider: string
  model: string
}

export interface ToolExecution {
  readonly callId: string
  readonly name: string
  readonly arguments: unknown
  readonly signal: AbortSignal
  /** The calling model, as the reference registry passes it. */
  readonly route?: ModelRoute
  /**
   * The calling agent, as the harness' ToolRuntime (dsh-tools) passes it instead of `route`: the
   * route of its latest request is `agent.session.requestHeader()?.config`, its configured one
   * `agent.options`. Untyped beyond that, because the bridge only reads these two places.
   */
  readonly agent?: HostAgent
}

/** The part of a dsh agent the bridge reads to find the calling model's route. */
export interface HostAgent {
  readonly session?: { requestHeader?(): { config?: Partial<ModelRoute> } | undefined }
  readonly options?: Partial<ModelRoute>
}

/**
 * A definition's `output`, in the form both hosts accept. The reference registry calls
 * `render(value)` and ignores `schema`; ToolRuntime requires `schema` (the JSON Schema of the value,
 * within its supported subset), validates every value against it and calls `render(args, value)`.
 * The value always comes last.
 */
export interface ToolOutput {
  schema?: JsonSchema
  render(...input: [value: unknown] | [args: unknown, value: unknown]): ContentBlock[]
}

export type ToolResult =
  | { isError: false; value: unknown; content: ContentBlock[] }
  | { isError: true; error: { message: string; code: string }; content: ContentBlock[] }

export interface ToolDefinition {
  /** The public, model-facing name: `[A-Za-z0-9_-]{1,64}`. */
  name: string
  description: string
  /** JSON Schema of the arguments; the registry validates calls against it. */
  parameters: JsonSchema
  execute(args: unknown, exec: ToolExecution): Promise<unknown>
  /** Where the tool comes from, for hosts (permissions, UIs) and test harnesses; never shown to the model. */
  source?: { kind: 'mcp'; serverName: string; rawName: string }
  /** Pure, synchronous rendering of a successful value for the model (see ToolOutput for both forms). */
  output?: ToolOutput
  /**
   * Runs after post-execute policies. Returning content replaces the rendered content; a tool must
   * return undefined when a policy already replaced the value or content (the policy wins).
   */
  finalizeContent?(exec: ToolExecution, result: Readonly<ToolResult>): ContentBlock[] | undefined
}

/** What the model sees of a tool in its tool list. */
export interface ToolSchema {
  name: string
  description: string
  parameters: JsonSchema
}

export interface ExecuteOptions {
  signal?: AbortSignal
  route?: ModelRoute
}

/** A post-execute policy: return a replacement result, or undefined to keep it. */
export type PostExecuteHook = (exec: ToolExecution, result: Readonly<ToolResult>) => ToolResult | undefined

export interface ToolsService {
  register(definition: ToolDefinition): () => void
  /** Optional: all-or-nothing registration of many tools; the bridge uses it when offered. */
  registerMany?(definitions: readonly ToolDefinition[]): Array<() => void>
  get(name: string): ToolDefinition | undefined
  list(): ToolSchema[]
  execute(name: string, args: unknown, options?: ExecuteOptions): Promise<ToolResult>
}

/** Optional: persists a batch of images for model context, all or nothing. */
export interface AttachmentsService {
  saveImages(batch: Array<{ data: Uint8Array; mediaType: string }>): Promise<ImageRef[]>
}

/** What a model accepts as input. Absent modalities mean unknown, which the bridge treats as text only. */
export interface ModelInfo {
  inputModalities?: readonly string[]
}

/**
 * Optional: what a model accepts, so images reach only models that can see them. The reference
 * catalog answers `resolveModelInfo(route)`; the harness' LlmRuntime answers
 * `resolveModelInfo(provider, model, signal)`. The bridge tells them apart by the number of
 * parameters the method declares (two or more: positional).
 */
export type ModelInfoService = RouteModelInfoService | PositionalModelInfoService

export interface RouteModelInfoService {
  resolveModelInfo(route: ModelRoute): Promise<ModelInfo>
}

export interface PositionalModelInfoService {
  resolveModelInfo(provider: string, model: string, signal?: AbortSignal): Promise<ModelInfo>
}
