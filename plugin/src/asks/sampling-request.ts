import type { SamplingConfig } from './sampling-config.ts'
import type { SamplingRequest } from './contract.ts'

/**
 * What of a server's `sampling/createMessage` reaches the host's model, checked and bounded.
 * The SDK has checked the request's shape; this decides what the bridge passes on: text turns
 * only (the host contract carries no images, audio or tools, and `sampling.tools` is never
 * declared), the server's words redacted and cut to one budget, maxTokens within the cap, and
 * a model picked from the configured list by the server's hints. `includeContext` is ignored:
 * the bridge never declares `sampling.context`, and shares no other conversation. Pure.
 */

/** A conversation longer than this is no prompt a person reviews. */
export const MAX_MESSAGES = 64
/** Stop sequences passed on, each at most MAX_STOP_CHARS. */
export const MAX_STOP_SEQUENCES = 8
export const MAX_STOP_CHARS = 64
/** Hints read; a model name longer than MAX_HINT_CHARS matches nothing useful. */
const MAX_HINTS = 16
const MAX_HINT_CHARS = 256

export type Quote = (text: string, max: number) => string

/** The host's request less what the bridge adds when it asks (the server's name, the signal). */
export type CheckedSampling = Omit<SamplingRequest, 'serverName' | 'signal'>

/** The checked request, or the problem a server is told (-32602). */
export function checkSampling(params: Record<string, unknown>, config: SamplingConfig, quote: Quote): { ok: true; request: CheckedSampling } | { ok: false; problem: string } {
  if (params.tools !== undefined || params.toolChoice !== undefined) return { ok: false, problem: 'tools were offered, but this client does not declare sampling.tools' }
  const raw = Array.isArray(params.messages) ? (params.messages as unknown[]) : []
  if (raw.length === 0) return { ok: false, problem: 'messages must hold at least one message' }
  if (raw.length > MAX_MESSAGES) return { ok: false, problem: `${raw.length} messages are more than the ${MAX_MESSAGES} this client passes on` }
  const turns: Array<{ role: 'user' | 'assistant'; text: string }> = []
  for (const [index, message] of raw.entries()) {
    const text = textOf(message)
    if (typeof text !== 'string') return { ok: false, problem: `messages[${index}] holds ${text.kind} content; this client passes text only to the host's model` }
    turns.push({ role: (message as { role?: unknown }).role === 'assistant' ? 'assistant' : 'user', text })
  }
  let maxTokens = typeof params.maxTokens === 'number' && params.maxTokens > 0 ? Math.floor(params.maxTokens) : 0
  if (maxTokens < 1) return { ok: false, problem: 'maxTokens must be a positive number' }
  if (maxTokens > config.maxTokens) {
    if (config.overMaxTokens === 'refuse') return { ok: false, problem: `maxTokens ${maxTokens} is more than the ${config.maxTokens} this client allows (sampling.maxTokens)` }
    maxTokens = config.maxTokens
  }
  // One budget for all the server's words: the system prompt first, then the turns in order.
  let budget = config.maxPromptChars
  const take = (text: string) => {
    const quoted = quote(text, budget)
    budget = Math.max(0, budget - Math.min(text.length, budget))
    return quoted
  }
  const systemPrompt = typeof params.systemPrompt === 'string' && params.systemPrompt !== '' ? take(params.systemPrompt) : undefined
  const messages = turns.map(({ role, text }) => ({ role, text: take(text) }))
  const stops = Array.isArray(params.stopSequences) ? (params.stopSequences as unknown[]).filter((s): s is string => typeof s === 'string' && s !== '' && s.length <= MAX_STOP_CHARS).slice(0, MAX_STOP_SEQUENCES) : []
  const model = pickModel(params.modelPreferences, config.models)
  return {
    ok: true,
    request: {
      messages,
      maxTokens,
      ...(systemPrompt !== undefined && { systemPrompt }),
      ...(typeof params.temperature === 'number' && Number.isFinite(params.temperature) && { temperature: params.temperature }),
      ...(stops.length > 0 && { stopSequences: stops }),
      ...(model !== undefined && { model }),
    },
  }
}

/** A message's text (its text blocks joined), or the kind of the first block that is not text. */
function textOf(message: unknown): string | { kind: string } {
  const content = (message as { content?: unknown } | undefined)?.content
  const blocks = Array.isArray(content) ? content : [content]
  const texts: string[] = []
  for (const block of blocks) {
    const type = (block as { type?: unknown } | undefined)?.type
    if (type !== 'text' || typeof (block as { text?: unknown }).text !== 'string') return { kind: typeof type === 'string' ? JSON.stringify(type.slice(0, 32)) : 'untyped' }
    texts.push((block as { text: string }).text)
  }
  return texts.join('\n')
}

/**
 * The spec's rule for hints: "Hints are processed in order" and matched as a substring of the
 * model name; its priorities (cost, speed, intelligence) are advisory and ignored here, since
 * the configuration, not the server, ranks the host's models.
 */
export function pickModel(preferences: unknown, models: readonly string[]): string | undefined {
  if (models.length === 0) return undefined
  const hints = (preferences as { hints?: unknown } | undefined)?.hints
  if (!Array.isArray(hints)) return undefined
  for (const hint of hints.slice(0, MAX_HINTS)) {
    const name = (hint as { name?: unknown } | undefined)?.name
    if (typeof name !== 'string' || name === '' || name.length > MAX_HINT_CHARS) continue
    const wanted = name.toLowerCase()
    const found = models.find((model) => model.toLowerCase().includes(wanted))
    if (found !== undefined) return found
  }
  return undefined
}
