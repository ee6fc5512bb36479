/** Contracts of the host services the plugin consumes. Hosts with their own registry implement these shapes. */
// The reference keeps cordis in the emitted declarations: without it, a consumer's compiler may
// take the augmentation below for the whole of cordis (its Context would lose `plugin`, `on`...).
/// <reference types="cordis" preserve="true" />
import type {} from 'cordis'

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

/**
 * Optional: how the host keeps OAuth credentials and lets a person sign in, for servers configured
 * with the auth type `authorization_code` (plugin/README.md "Signing in"). Looked up with `ctx.get`
 * when a connection needs it. Without it, credentials live as long as the connection and a sign-in
 * is refused with one line naming the server.
 */
export interface McpAuthService {
  /** Where tokens and client registrations outlive the process; the reference host's writes a 0600 file per issuer. */
  credentials?: CredentialStore
  /**
   * Hands a person the authorization URL of `serverName` (print it, open a browser). The bridge
   * listens for the redirect itself (127.0.0.1, an ephemeral port) and waits until `signal`
   * aborts; the hook need not wait for the person. Absent: a headless host, which refuses.
   */
  signIn?(request: SignInRequest): Promise<void> | void
}

export interface SignInRequest {
  serverName: string
  /** The authorization URL: carries the PKCE challenge and `state`, never a secret. */
  url: string
  /** Aborted when the bridge stops waiting for the redirect. */
  signal: AbortSignal
}

/** What the bridge holds for one authorization server, keyed by its issuer: never presented to another. */
export interface StoredCredentials {
  issuer: string
  /** The registration made with this issuer (dynamic client registration). */
  client?: { clientId: string; clientSecret?: string }
  /** Tokens by resource (the MCP server's URI, RFC 8707), each with the client they were issued to. */
  tokens: Record<string, StoredTokens>
}

export interface StoredTokens {
  clientId: string
  accessToken: string
  refreshToken?: string
  /** Milliseconds since the epoch. */
  expiresAt?: number
  scope?: string
}

/** A store of credentials per issuer. Its contents are secrets: never logged, never shown. */
export interface CredentialStore {
  load(issuer: string): Promise<StoredCredentials | undefined>
  save(credentials: StoredCredentials): Promise<void>
  delete(issuer: string): Promise<void>
  /** Every issuer with stored credentials (for a logout that knows the server, not its issuer). */
  issuers(): Promise<string[]>
}

/**
 * Optional: how the host asks a person what an MCP server wants to know (MCP 2025-11-25
 * client/elicitation), looked up with `ctx.get` when a connection opens. The bridge declares the
 * elicitation capability, with the modes below, only when the service is there; without it a
 * server is never offered elicitation. The bridge checks the server's request first (a form's
 * schema within the spec's restricted subset, a URL that parses), bounds and redacts its words,
 * hands the host one ask at a time per connection, and checks the answer before it is sent.
 */
export interface McpElicitationService {
  /** The modes this host can present; absent: form only. */
  modes?: readonly ElicitationMode[]
  /**
   * Asks the person. Resolve with what they did; `signal` aborts when the server, the call or
   * the connection no longer waits (then any answer is dropped, and `cancel` is sent).
   */
  elicit(request: ElicitationRequest): Promise<ElicitationAnswer>
}

export type ElicitationMode = 'form' | 'url'

export type ElicitationRequest = FormElicitationRequest | UrlElicitationRequest

interface ElicitationRequestBase {
  /** The configured serverName: "MUST ... make it clear which server is requesting information". */
  serverName: string
  /** The server's words, redacted and bounded. */
  message: string
  signal: AbortSignal
}

/** A form: fields of primitive values, as the spec's restricted schema subset defines them. */
export interface FormElicitationRequest extends ElicitationRequestBase {
  mode: 'form'
  fields: ElicitationField[]
}

/** A URL for the person to open themselves, after consent; the host never fetches it on its own. */
export interface UrlElicitationRequest extends ElicitationRequestBase {
  mode: 'url'
  url: string
  /** The URL's host, which the spec asks clients to display clearly. */
  domain: string
}

/** One field of a form; its title and description are redacted and bounded server words. */
export interface ElicitationField {
  name: string
  required: boolean
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices'
  title?: string
  description?: string
  /** Already applied by the bridge to a field the answer leaves out. */
  default?: ElicitationValue
  /** `choice` and `choices`: the values to pick from, each with a label to show. */
  options?: Array<{ value: string; label: string }>
  format?: 'email' | 'uri' | 'date' | 'date-time'
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
}

export type ElicitationValue = string | number | boolean | string[]

/** `accept` with a form's values (fields left out take their defaults), or the person's no. */
export type ElicitationAnswer = { action: 'accept'; content?: Record<string, ElicitationValue> } | { action: 'decline' } | { action: 'cancel' }

/**
 * Optional: the host's model, for a server that asks for a completion (MCP 2025-11-25
 * client/sampling; an input request of a 2026-07-28 `input_required` result alike). Looked up
 * with `ctx.get` when a connection opens and at each ask. The bridge declares the `sampling`
 * capability only for a server configured with `sampling.enabled` while the service is there.
 * Before the host sees a request the bridge has checked it (text only, no tools), applied the
 * configured caps (tokens, requests per minute, concurrent requests) and bounded and redacted
 * the server's words; it bounds the reply before sending it back (plugin/README.md "Sampling").
 */
export interface McpSamplingService {
  /**
   * The host's hook to approve or refuse each request (the spec: "there SHOULD always be a
   * human in the loop with the ability to deny sampling requests"). False: the server gets -1.
   * Absent: every request within the caps is approved, the configuration being the consent.
   */
  approve?(request: SamplingRequest): boolean | Promise<boolean>
  /** Runs the model. Throwing sends the server -32603 with the (bounded, redacted) reason. */
  createMessage(request: SamplingRequest): Promise<SamplingReply>
}

/** One text turn of the conversation a server asks the model to continue. */
export interface SamplingMessage {
  role: 'user' | 'assistant'
  /** The server's words, redacted and bounded. */
  text: string
}

export interface SamplingRequest {
  /** The configured serverName of the server that asks. */
  serverName: string
  messages: SamplingMessage[]
  /** The server's system prompt, redacted and bounded; absent when it sent none. */
  systemPrompt?: string
  /** What the server asked for, at most the configured `sampling.maxTokens`. */
  maxTokens: number
  temperature?: number
  stopSequences?: string[]
  /**
   * The configured model the server's hints picked (`sampling.models`, case-insensitive
   * substring, hints in order); absent: the host's own choice.
   */
  model?: string
  /** Aborts when the server, the call or the connection no longer waits, or maxTotalTimeoutMs passes. */
  signal: AbortSignal
}

export interface SamplingReply {
  /** The model's text; the bridge cuts it to `sampling.maxReplyChars` with a marker. */
  text: string
  /** The model that answered, as the server is told. */
  model: string
  stopReason?: 'endTurn' | 'maxTokens' | 'stopSequence'
}
