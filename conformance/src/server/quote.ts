/**
 * The one rule for quoting a server's text in a verdict, a detail or a wire excerpt: redact
 * first, then cut. Cut first, and a secret cut in two no longer matches its shape, so its first
 * half would reach the terminal and the reports (the reports redact again, too late).
 */
import { redactSecrets } from '@mcp-bridge/process'

/** Longer than any secret shape the redactor recognises (the plugin's quoteUntrusted window). */
const WINDOW = 2048

/** `text` redacted, then cut to `max` characters with "…". Only a window is redacted, so a huge text costs no more than its start. */
export function cut(text: string, max: number): string {
  const windowed = text.length > max + WINDOW
  const redacted = redactSecrets(windowed ? text.slice(0, max + WINDOW) : text)
  // A secret straddling the window's end is no longer recognisable: never show that part.
  const limit = windowed ? Math.max(0, Math.min(max, redacted.length - WINDOW)) : max
  return redacted.length <= limit && !windowed ? redacted : `${redacted.slice(0, limit)}…`
}
