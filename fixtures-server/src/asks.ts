import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { AskSpec } from './asks-schema.ts'

/**
 * Sends a script's asks (asks-schema.ts) and waits for the answers only so that the call's result
 * follows them: what the client answered is in the wire log, where the kit judges it. A client
 * that never answers costs each ask `timeoutMs`, then the fixture carries on.
 */

/** Any answer is taken: the fixture asks, it never judges (the SDK would refuse what it cannot parse). */
const AnyResult = z.object({}).loose()

/** How long each ask waits for its answer when the script names no askTimeoutMs. */
export const ASK_TIMEOUT_MS = 5_000

/** The `requestState` the fixture gives an `input_required` result: the retry must echo it. */
export const ASKS_REQUEST_STATE = 'fixture-asks'

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>

/** Each ask, its copies expanded, in order. */
function expand(asks: readonly AskSpec[]): Array<{ method: string; params?: Record<string, unknown> }> {
  return asks.flatMap(({ method, params, count }) => Array.from({ length: count }, () => ({ method, ...(params !== undefined && { params }) })))
}

/** Legacy: the asks as server requests related to the call (over HTTP on the call's own stream), all at once. */
export async function askDuringCall(asks: readonly AskSpec[], extra: Extra, timeoutMs = ASK_TIMEOUT_MS): Promise<void> {
  const requests = expand(asks).map((request) =>
    extra.sendRequest(request as ServerRequest, AnyResult, { timeout: timeoutMs }),
  )
  await Promise.allSettled(requests)
}

/** Legacy: `notifications/elicitation/complete` for each id in order, related to the call (over HTTP on its stream). */
export async function completeElicitations(ids: readonly string[], extra: Extra): Promise<void> {
  for (const elicitationId of ids) await extra.sendNotification({ method: 'notifications/elicitation/complete', params: { elicitationId } } as ServerNotification)
}

/** Legacy: the asks sent before the client's notifications/initialized. */
export function askEarly(server: Server, asks: readonly AskSpec[], timeoutMs: number | undefined, failed: (error: Error) => void): void {
  for (const request of expand(asks)) {
    server.request(request as ServerRequest, AnyResult, { timeout: timeoutMs ?? ASK_TIMEOUT_MS }).catch((error: Error) => {
      // An error answer is the client's to give; only a send that never left is the fixture's.
      if (!/MCP error|timed out|Connection closed/i.test(error.message)) failed(error)
    })
  }
}

/** A modern request (its params as sent) that retries with `inputResponses` and echoes the fixture's state. */
export function answersAsks(params: unknown): boolean {
  const given = params as { inputResponses?: unknown; requestState?: unknown } | undefined
  return given?.inputResponses !== undefined && given.requestState === ASKS_REQUEST_STATE
}

/**
 * 2026-07-28 (schema.ts InputRequiredResult): a call is answered with the asks as
 * `inputRequests`, until a retry answers them (answersAsks), which gets the tool's result.
 */
export function inputRequired(asks: readonly AskSpec[]): Record<string, unknown> {
  const inputRequests = Object.fromEntries(expand(asks).map((request, index) => [`ask-${index + 1}`, request]))
  return { resultType: 'input_required', inputRequests, requestState: ASKS_REQUEST_STATE }
}
