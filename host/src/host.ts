import { handleSignals, onShutdown, type SignalOptions } from '@mcp-bridge/process'
import { Context } from 'cordis'
import { attachConsoleLogger, type ConsoleLoggerOptions } from './logging.ts'
import { ConnectionStatus } from './status.ts'
import { ToolRegistry } from './tools.ts'

export interface HostOptions {
  /** Console logging; `false` attaches none (the caller may attach its own exporter). */
  logging?: ConsoleLoggerOptions | false
  /**
   * SIGINT and SIGTERM dispose the host (bounded by `graceMs`, default 5 s), kill any server
   * process left, and exit with 130 or 143. `false` leaves signals to the application, which
   * must then dispose the host itself (docs/HOSTING.md); servers still die with the process.
   */
  signals?: SignalOptions | false
}

export interface Host {
  ctx: Context
  tools: ToolRegistry
  /** Every bridge instance's last connection state and pid (the `mcp/state` events). */
  status: ConnectionStatus
  dispose(): Promise<void>
}

/** A ready Cordis root with the reference `tools` and `mcpStatus` services and visible logs. */
export async function createHost(options: HostOptions = {}): Promise<Host> {
  const ctx = new Context()
  if (options.logging !== false) attachConsoleLogger(ctx, options.logging ?? {})
  // First, so that it sees every instance's `mcp/state` events from the first.
  const status = ctx.plugin(ConnectionStatus)
  await status
  const fiber = ctx.plugin(ToolRegistry)
  await fiber
  const host: Host = {
    ctx,
    // The service as installed above: the reference registry, with its own extras.
    tools: ctx.tools as ToolRegistry,
    status: ctx.get('mcpStatus') as ConnectionStatus,
    dispose: async () => {
      await fiber.dispose()
      await status.dispose()
    },
  }
  return stopOnSignals(host, options.signals)
}

/**
 * Makes SIGINT/SIGTERM dispose `host` (see HostOptions.signals) until it is disposed; returns the
 * host with a dispose that also gives the signals back.
 */
export function stopOnSignals<T extends Host>(host: T, signals: SignalOptions | false | undefined): T {
  if (signals === false) return host
  const release = handleSignals(signals ?? {})
  const dispose = host.dispose
  let disposing: Promise<void> | undefined
  const stop = () => (disposing ??= dispose())
  const off = onShutdown(stop)
  return {
    ...host,
    dispose: async () => {
      off()
      await stop()
      release()
    },
  }
}
