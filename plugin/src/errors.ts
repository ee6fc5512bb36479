import { errorMessage, quoteUntrusted, type Redact } from '@mcp-bridge/process'

// Re-exported: the plugin's modules take their error wording from here.
export { errorMessage }

/**
 * Stable string codes for failures the bridge and the reference host report. Wire errors keep
 * their JSON-RPC numeric codes inside `cause`; these codes are what callers branch on.
 */
export type BridgeErrorCode =
  | 'UNKNOWN_TOOL'
  | 'INVALID_ARGS'
  | 'TOOL_ERROR'
  | 'TOOL_TIMEOUT'
  | 'ABORTED'
  | 'SERVER_UNAVAILABLE'
  | 'UNAUTHORIZED'
  | 'INVALID_TOOL_LIST'
  | 'INVALID_RESULT'
  | 'NAME_CONFLICT'
  | 'CONNECT_TIMEOUT'
  | 'INVALID_CONFIG'
  /** A feature beyond tools that the configuration does not enable or the server did not declare (features/). */
  | 'NOT_OFFERED'

const brand = Symbol.for('mcp-bridge.error')

export class BridgeError extends Error {
  readonly [brand] = true
  constructor(
    message: string,
    readonly code: BridgeErrorCode,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'BridgeError'
  }

  /** Brand check that also works across duplicated module copies. */
  static is(value: unknown): value is BridgeError {
    return typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true
  }
}

/**
 * The message, with the network reason when there is one: fetch's own is only "fetch failed",
 * and the reason a connection could not be made (ECONNREFUSED, ENOTFOUND, "bad port") is in
 * its `cause`.
 */
export function errorMessageWithCause(error: unknown): string {
  const cause: unknown = error instanceof Error ? error.cause : undefined
  if (!(cause instanceof Error)) return errorMessage(error)
  const code = (cause as Error & { code?: unknown }).code
  return [errorMessage(error), typeof code === 'string' && !cause.message.includes(code) ? code : '', cause.message].filter(Boolean).join(': ')
}

/**
 * Without stack frames: for errors about the configuration or the server, where a trace of the
 * plugin's internals says nothing the message does not (hosts such as Cordis print `stack`).
 */
export function withoutStack<T extends Error>(error: T): T {
  error.stack = `${error.name}: ${error.message}`
  return error
}

/** The most of an upstream error's text any message quotes. */
export const MAX_QUOTED_ERROR_CHARS = 2_000

/**
 * A stand-in for an error from the SDK or the network, fit to keep as a `cause`: its name, its
 * code and an HTTP status survive, its message is redacted and bounded, and it has no stack. The original
 * may quote an HTTP body or a URL with credentials, and hosts log causes.
 */
export function safeCause(error: unknown, redact: Redact): Error {
  const copy = new Error(quoteUntrusted(errorMessage(error), MAX_QUOTED_ERROR_CHARS, redact))
  if (error instanceof Error) copy.name = error.name
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'number' || typeof code === 'string') Object.assign(copy, { code })
  // An HTTP refusal's status (the SDK's SdkHttpError keeps it apart from its code).
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status === 'number') Object.assign(copy, { status })
  return withoutStack(copy)
}
