import type { Logger } from 'cordis'
import { escapeControls, type Redact } from '@mcp-bridge/process'

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
