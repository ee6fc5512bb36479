import type { Logger } from 'cordis'
import type { Redact } from './redact.ts'

/** The logging the bridge does; every line is redacted on its way out. */
export interface Log {
  error(format: string, ...args: unknown[]): void
  warn(format: string, ...args: unknown[]): void
  info(format: string, ...args: unknown[]): void
  debug(format: string, ...args: unknown[]): void
}

/**
 * Wraps a Cordis logger so that no argument reaches an exporter unredacted: log lines quote
 * server output and error texts, and exporters write them to files, consoles and CI artifacts.
 * Errors are passed as their redacted message (never the object: Cordis prints its stack and
 * its cause, which may quote what the server sent).
 *
 * Each text is also made one line with no control characters (escapeControls), after it is
 * redacted (the patterns read line ends and quotes as the server wrote them): a tool name that
 * holds `\n[error] mcp:other: …` would otherwise print a second, forged record, and an escape
 * sequence would recolour the terminal or retitle its window.
 */
export function redactingLog(logger: Pick<Logger, keyof Log>, redact: Redact): Log {
  const shown = (text: string) => escapeControls(redact(text))
  const clean = (arg: unknown) => (typeof arg === 'string' ? shown(arg) : arg instanceof Error ? shown(arg.message) : arg)
  const level =
    (name: keyof Log) =>
    (format: string, ...args: unknown[]) =>
      logger[name](shown(format), ...args.map(clean))
  return { error: level('error'), warn: level('warn'), info: level('info'), debug: level('debug') }
}

/**
 * C0 controls (line feed, carriage return and tab too), DEL and C1 controls, the Unicode line and
 * paragraph separators, and the bidirectional embeddings, overrides and isolates, which reorder
 * what a terminal shows ("Trojan Source"). Nothing else: letters of every script stay as they are.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g // eslint-disable-line no-control-regex -- finding them is the point

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * Pure: text fit for one line of a log or a terminal, with every control character written as
 * its escape (`\n`, `\x1b`, `\u202e`) instead of acting. Backslashes are left as they are, so
 * `C:\new` reads as itself; an escape can therefore stand for itself, but it never acts.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (char) => SHORT_ESCAPES[char] ?? codeEscape(char.charCodeAt(0)))
}

function codeEscape(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}
