import { Logger, type Context, type Message } from 'cordis'

export type LogLevel = 'error' | 'warn' | 'info' | 'debug'
const LEVELS: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 }

export interface ConsoleLoggerOptions {
  /** Most verbose level printed; default `info`. `MCP_BRIDGE_LOG_LEVEL` overrides it. */
  level?: LogLevel
  write?: (line: string) => void
}

/**
 * Cordis 4 keeps log messages in a buffer and prints nothing until an exporter is attached;
 * this attaches one that writes `[level] name: message` lines to stderr. Returns the detach function.
 */
export function attachConsoleLogger(ctx: Context, options: ConsoleLoggerOptions = {}): () => void {
  const envLevel = process.env.MCP_BRIDGE_LOG_LEVEL as LogLevel | undefined
  const level = LEVELS[envLevel && envLevel in LEVELS ? envLevel : (options.level ?? 'info')]
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'))
  const dispose = ctx.logger.exporter({
    colors: 0,
    levels: { default: level },
    export(this: Parameters<typeof Logger.format>[0], message: Message) {
      write(`[${message.type}] ${message.name}: ${Logger.format(this, message)}`)
    },
  })
  return () => void dispose()
}
