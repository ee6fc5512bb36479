import Schema from 'schemastery'

/**
 * Sampling's configuration (MCP 2025-11-25 client/sampling): the field group config-schema.ts
 * spreads into every transport. Off by default: a server is offered the host's model only when
 * its entry says so, and then only within these caps. Pure.
 */

export interface SamplingConfig {
  enabled: boolean
  maxTokens: number
  overMaxTokens: 'clamp' | 'refuse'
  requestsPerMinute: number
  maxConcurrent: number
  maxPromptChars: number
  maxReplyChars: number
  models: string[]
}

const SamplingObject = Schema.object({
  enabled: Schema.boolean()
    .default(false)
    .description("Offer the sampling capability: the server may ask the host's model (the mcpSampling service) for a completion, within the caps below."),
  maxTokens: Schema.natural().min(1).max(1_000_000).default(1_024).description('Most tokens one request may ask the model for.'),
  overMaxTokens: Schema.union([Schema.const('clamp'), Schema.const('refuse')])
    .default('clamp')
    .description('A request asking for more than maxTokens: clamp lowers it to maxTokens; refuse answers -32602.'),
  requestsPerMinute: Schema.natural().min(1).max(10_000).default(10).description('Requests taken in any 60 seconds; more are refused at once (-1).'),
  maxConcurrent: Schema.natural().min(1).max(64).default(1).description('Requests answered at once; more are refused at once (-1), never queued.'),
  maxPromptChars: Schema.natural().min(1).max(10_000_000).default(32_000).description("Characters of the server's text (system prompt and messages) one request passes to the model; the rest is cut with a marker."),
  maxReplyChars: Schema.natural().min(1).max(10_000_000).default(32_000).description("Characters of the model's reply sent back; the rest is cut with a marker."),
  models: Schema.array(String)
    .default([])
    .description("Models the server's hints may pick (the first whose name contains a hint, case-insensitive, hints in order); empty or no match: the host's own choice."),
})

export const SamplingFields = {
  sampling: SamplingObject.default({} as SamplingConfig).description("Whether the server may ask the host's model for completions, and the caps; off by default.") as unknown as Schema<
    Partial<SamplingConfig> | undefined,
    SamplingConfig
  >,
}
