// The bridge's `mcpSampling` service (plugin/src/host-contract.ts, McpSamplingService) answered by
// the harness' own model service, dsh-llm's LlmRuntime (`ctx.llm`): a server's sampling request
// becomes one `ctx.llm.stream(...)` call, the text deltas are joined and the finish reason becomes
// the MCP stopReason. The bridge has already checked, capped, bounded and redacted the request
// (plugin/README.md "Sampling"); this only translates it.
//
// Approval: the harness' ApprovalService (dsh-user-approval) asks on behalf of an Agent with an
// open turn (`request({ agent, toolName, ... })`), and a sampling request carries no agent (the
// server asks, not a model's tool call), so it cannot be put to that service. Without an `approve`
// option the configuration (`sampling.enabled` and the caps) is the consent, as the plugin's
// contract says; a deployment with a person at hand passes its own `approve`.
import { createMessage } from '@deepseek-ai/dsh-llm'

/** How a dsh-llm finish reason reads as an MCP stopReason; absent: the spec's field is optional. */
const STOP_REASONS = { stop: 'endTurn', 'max-tokens': 'maxTokens' }

/** The server's conversation as harness messages; their source says they come from the bridge, not a model. */
function toMessages(messages) {
  return messages.map(({ role, text }) => createMessage({ role, content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'mcp-bridge' } }))
}

/**
 * An McpSamplingService over `llm` (an LlmRuntime). `provider` is the route every request goes to;
 * `model` the model when the server's hints picked none of `sampling.models` (a picked one is
 * used as a model id of the same provider).
 */
export function llmSampling(llm, { provider, model, approve }) {
  if (!provider || !model) throw new Error('llmSampling: `provider` and `model` are required (the route a server\'s requests go to)')
  return {
    ...(approve ? { approve } : {}),
    async createMessage(request) {
      const route = { provider, model: request.model ?? model }
      const chunks = llm.stream({
        ...route,
        messages: toMessages(request.messages),
        ...(request.systemPrompt !== undefined ? { system: request.systemPrompt } : {}),
        maxTokens: request.maxTokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.stopSequences?.length ? { stop: request.stopSequences } : {}),
        signal: request.signal,
      })
      let text = ''
      let finish
      for await (const chunk of chunks) {
        // Only visible text answers a server: reasoning stays with the host, and no tools were offered.
        if (chunk.type === 'text-delta') text += chunk.text
        else if (chunk.type === 'finish') finish = chunk.reason
      }
      // LlmRuntime turns an adapter's throw or abort into a terminal finish; the bridge bounds and redacts these words.
      if (finish?.kind === 'error' || finish?.kind === 'aborted') throw new Error(`the model ${finish.kind === 'aborted' ? 'call was aborted' : 'failed'}: ${finish.failure.message}`)
      if (request.signal.aborted) throw new Error('the model call was aborted')
      if (!finish) throw new Error('the model stream ended without a finish')
      // 'stop' also covers a stop sequence: dsh-llm does not tell them apart, so endTurn it is.
      const stopReason = STOP_REASONS[finish.kind]
      return { text, model: route.model, ...(stopReason ? { stopReason } : {}) }
    },
  }
}

/**
 * Provides `mcpSampling` on `ctx` when the harness has a model service there (`ctx.llm`);
 * otherwise provides nothing, so the bridge declares no sampling capability. Returns the disposer.
 */
export function provideSampling(ctx, options) {
  const llm = ctx.get('llm')
  if (!llm) return () => {}
  return ctx.provide('mcpSampling', llmSampling(llm, options))
}
