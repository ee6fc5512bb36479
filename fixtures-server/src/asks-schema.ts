import { z } from 'zod'

/**
 * What a fixture asks the client for (MCP 2025-11-25 client/roots, client/sampling,
 * client/elicitation): the requests, written as they go on the wire, so a script can send a
 * well-formed ask, a malformed one, a flood, or one for a capability the client never declared.
 * asks.ts sends them.
 */
export const ASK_METHODS = ['roots/list', 'sampling/createMessage', 'elicitation/create'] as const

export const AskSchema = z.strictObject({
  method: z.enum(ASK_METHODS),
  /** Sent verbatim (absent: none), malformed or not: the client's answer is what is judged. */
  params: z.record(z.string(), z.unknown()).optional(),
  /** This many copies at once (a flood). */
  count: z.int().min(1).max(200).default(1),
})

export const AsksShape = {
  /**
   * During a call of the tool: at a legacy era, server requests related to the call (awaited,
   * each bounded by `askTimeoutMs`); at 2026-07-28, an `input_required` result carrying them as
   * `inputRequests`, answered when the call is retried with `inputResponses`. The tool's result
   * follows either way.
   */
  asks: z.array(AskSchema).min(1).optional(),
  /**
   * Legacy only: once the asks are answered, a `notifications/elicitation/complete` for each of
   * these `elicitationId`s in order, related to the call (MCP 2025-11-25 client/elicitation,
   * "Completion Notifications for URL Mode Elicitation"): one the call's URL-mode ask named, one
   * the client never saw, or one repeated. Only to a client that declared URL-mode elicitation
   * (the SDK's server sends it to no other). 2026-07-28 has no such notification (its schema lists
   * none and reserves -32042 as "2025-11-25 only"), so a modern call sends none.
   */
  elicitationComplete: z.array(z.string().min(1).max(200)).min(1).max(20).optional(),
}

export const EarlyAsksShape = {
  /**
   * Legacy only: asks sent right after the initialize result, before the client's
   * notifications/initialized (lifecycle: a server SHOULD NOT; how the client copes is judged).
   */
  earlyAsks: z.array(AskSchema).min(1).optional(),
  /** How long the fixture waits for each answer to an ask before it carries on (absent: asks.ts ASK_TIMEOUT_MS). */
  askTimeoutMs: z.int().min(1).max(60_000).optional(),
}

export type AskSpec = z.output<typeof AskSchema>
