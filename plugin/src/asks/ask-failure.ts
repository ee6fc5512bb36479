import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client'
import { quoteUntrusted, type Redact } from '@mcp-bridge/process'
import { AskRefusal } from './elicitation.ts'

/** A refusal names the field at fault near its start; the SDK's schema report runs to pages. */
const MAX_REFUSAL_CHARS = 1_000

/**
 * The SDK client's own refusals of an elicitation it checks before the bridge's handler runs
 * (the request's shape, a mode the connection did not declare): raised here, not by the server.
 */
const SDK_REFUSAL = /^(MCP error -?\d+: )?(Invalid elicitation request|Invalid sampling request|Client does not support \S+ elicitation requests)/

/**
 * Why a 2026-07-28 call whose result asked for input failed, when the ask was the reason: the
 * input request was one the bridge does not offer on this connection (the SDK finds no handler),
 * the bridge or the SDK refused it (a form outside the spec's subset, a host answer that does not
 * fit), or the server kept asking past the SDK's round cap. Undefined for every other failure.
 * The text may carry the server's words: bounded and redacted.
 */
export function askFailure(error: unknown, redact: Redact): string | undefined {
  const quote = (text: string) => quoteUntrusted(text, MAX_REFUSAL_CHARS, redact)
  if (error instanceof AskRefusal || (error instanceof ProtocolError && SDK_REFUSAL.test(error.message))) {
    return `the server's input request was refused by the bridge: ${quote(error.message)}; the call was not retried`
  }
  if (!(error instanceof SdkError)) return undefined
  if (error.code === SdkErrorCode.CapabilityNotSupported && typeof (error.data as { method?: unknown } | undefined)?.method === 'string') {
    const method = quote((error.data as { method: string }).method)
    return `the server asked for input (${method} in an input_required result) that the bridge does not offer on this connection; the call was not retried`
  }
  if (error.code === SdkErrorCode.InputRequiredRoundsExceeded) {
    return `the server still asked for input after ${quote(String((error.data as { rounds?: unknown } | undefined)?.rounds ?? 'several'))} rounds of answers; the call was ended`
  }
  return undefined
}
