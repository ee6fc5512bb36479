/** The host services the server's asks consume (host-contract.ts re-exports them as part of the plugin's API). */

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
