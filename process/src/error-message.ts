import { quoteUntrusted, type Redact } from './redact.ts'

/** An error's message; for a thrown value that cannot be made a string (`Object.create(null)`), a placeholder. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  try {
    return String(error)
  } catch {
    return 'a value that cannot be shown'
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
