import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'

/**
 * The v2 client's errors in the words the rest of the bridge already knows (request-failure.ts
 * tells them apart once, for both eras): a server's JSON-RPC error and the SDK's own timeout and
 * closed verdicts become the v1 McpError with the same code and data, an HTTP refusal the v1
 * StreamableHTTPError with its status. A probe that could not reach the server at all says so
 * with the network's own error, as a legacy connection's would. The answer the modern HTTP
 * transport puts in place of one that can no longer come is the AnswerLostError it stands for.
 * Anything else passes unchanged.
 */
export function legacyShaped(error: unknown): unknown {
  if (error instanceof InputRequiredError || error instanceof AnswerLostError) return error
  if (error instanceof ProtocolError && isStreamEnded(error.data)) return new AnswerLostError(stripPrefix(error.message))
  if (error instanceof ProtocolError) return new McpError(error.code, stripPrefix(error.message), error.data)
  if (!(error instanceof SdkError)) return error
  const status = (error.data as { status?: unknown } | undefined)?.status
  if (typeof status === 'number') return new StreamableHTTPError(status, error.message)
  switch (error.code) {
    case SdkErrorCode.RequestTimeout:
      return new McpError(ErrorCode.RequestTimeout, error.message, error.data)
    case SdkErrorCode.ConnectionClosed:
      return new McpError(ErrorCode.ConnectionClosed, error.message)
    case SdkErrorCode.UnsupportedResultType:
      return (error.data as { resultType?: unknown } | undefined)?.resultType === 'input_required' ? new InputRequiredError() : error
    case SdkErrorCode.EraNegotiationFailed:
      // "fetch failed" and its ECONNREFUSED, as a legacy connection's error tells them.
      return error.cause instanceof Error ? error.cause : error
    default:
      return error
  }
}

/**
 * A modern server answered with an `input_required` result: it asks the client for input
 * (elicitation, sampling, roots) before it answers. The bridge declares none of those
 * capabilities, so the round is declined and the call ends with this error instead of waiting.
 */
export class InputRequiredError extends Error {
  constructor() {
    super('the server asked for input (an input_required result), which the bridge cannot give: it declares no elicitation, sampling or roots capability')
    this.name = 'InputRequiredError'
  }
}

/** Marks the JSON-RPC error the modern HTTP transport answers a request with when its stream ended unanswered (http-transport.ts). */
export const STREAM_ENDED_MARK = 'mcp-bridge/stream-ended'

function isStreamEnded(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as Record<string, unknown>)[STREAM_ENDED_MARK] === true
}

/**
 * A modern request's answer can no longer come: the event stream its POST opened ended or broke
 * before the answer, and could not be resumed. Over Streamable HTTP at 2026-07-28 each request has
 * a stream of its own, so this is how a server that died mid-call shows: a lost connection, as a
 * legacy connection's broken POST is (request-failure.ts).
 */
export class AnswerLostError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AnswerLostError'
  }
}

/** v1's McpError adds "MCP error <code>: " itself; v2's message may carry the same prefix already. */
function stripPrefix(message: string): string {
  return message.replace(/^MCP error -?\d+: /, '')
}
