import { quoteUntrusted, type Redact } from '@mcp-bridge/process'
import type { Clock } from '@mcp-bridge/process'
import type { Log } from '../log.ts'
import { isRecord } from '@mcp-bridge/process'
import { LOG_LEVELS, type LogLevel } from './config.ts'

/** A server's log line is a line: longer data is cut with a notice. */
export const MAX_SERVER_LOG_CHARS = 2_000
/** The window maxLogLinesPerMinute counts in. */
export const LOG_WINDOW_MS = 60_000

/** Where each MCP level goes in the host's log. */
const HOST_LEVEL: Record<LogLevel, keyof Log> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
}

/**
 * Server log messages (notifications/message) into the host's log: at the configured level and
 * above, each bounded to MAX_SERVER_LOG_CHARS and redacted, at most `perMinute` lines in a window;
 * the rest are counted and told in one line when the window ends. A server that floods is thus
 * heard without taking the host's log, or its event loop, with it (the 2025-11-25 logging page
 * asks the sender to rate-limit; nothing binds the receiver, so this is the bridge's own rule).
 */
export class ServerLog {
  private shown = 0
  private suppressed = 0
  private window?: unknown
  private closed = false

  constructor(
    private readonly log: Log,
    private readonly clock: Clock,
    private readonly redact: Redact,
    private readonly threshold: LogLevel,
    private readonly perMinute: number,
  ) {}

  message(params: unknown): void {
    if (this.closed || !isRecord(params)) return
    const level: LogLevel = (LOG_LEVELS as readonly unknown[]).includes(params.level) ? (params.level as LogLevel) : 'info'
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(this.threshold)) return
    this.window ??= this.clock.setTimeout(() => this.endWindow(), LOG_WINDOW_MS)
    if (this.shown >= this.perMinute) {
      this.suppressed += 1
      return
    }
    this.shown += 1
    const logger = typeof params.logger === 'string' ? `${quoteUntrusted(params.logger, 80, this.redact)}: ` : ''
    const data = typeof params.data === 'string' ? params.data : safeJson(params.data)
    this.log[HOST_LEVEL[level]]('server log (%s): %s%s', level, logger, quoteUntrusted(data, MAX_SERVER_LOG_CHARS, this.redact))
  }

  /** Stops counting: the summary of a window still open is told now. */
  close(): void {
    this.clock.clearTimeout(this.window)
    this.endWindow()
    this.closed = true
  }

  private endWindow(): void {
    this.window = undefined
    if (this.suppressed > 0) this.log.warn('%d server log messages over features.maxLogLinesPerMinute (%d) were not shown', this.suppressed, this.perMinute)
    this.shown = 0
    this.suppressed = 0
  }
}

/** Data of any JSON shape as one line; a value JSON cannot write (it came over JSON, so rarely) as its type. */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return typeof value
  }
}
