import { Context } from 'cordis'
import { attachConsoleLogger, type ConsoleLoggerOptions } from './logging.ts'
import { ToolRegistry } from './tools.ts'

export interface HostOptions {
  /** Console logging; `false` attaches none (the caller may attach its own exporter). */
  logging?: ConsoleLoggerOptions | false
}

export interface Host {
  ctx: Context
  tools: ToolRegistry
  dispose(): Promise<void>
}

/** A ready Cordis root with the reference `tools` service and visible logs. */
export async function createHost(options: HostOptions = {}): Promise<Host> {
  const ctx = new Context()
  if (options.logging !== false) attachConsoleLogger(ctx, options.logging ?? {})
  const fiber = ctx.plugin(ToolRegistry)
  await fiber
  return {
    ctx,
    // The service as installed above: the reference registry, with its own extras.
    tools: ctx.tools as ToolRegistry,
    dispose: async () => {
      await fiber.dispose()
    },
  }
}
