import type { Context } from 'cordis'
import { startDeadline } from '@mcp-bridge/process'
import type { Config } from '../config.ts'
import type { ServerConnection } from '../connection.ts'
import type { FeatureNotification } from '../session.ts'
import { LOG_LEVELS } from './config.ts'
import { ServerLog } from './server-log.ts'
import type { McpServer } from './handle.ts'
import type {} from './service.ts'

/** What an instance adds to its connection for the features beyond tools it is configured with. */
export interface BeyondTools {
  /** Server log messages, when features.logLevel asks for them. */
  onLogMessage?: (params: unknown) => void
  /** Resource and prompt changes, when resources or prompts are offered. */
  onFeatureNotification?: (method: FeatureNotification, params: unknown) => void
  /** Binds the features to the instance's connection, for the instance's lifetime. */
  attach(ctx: Context, connection: ServerConnection): void
}

/**
 * The features beyond tools, for one instance. With none configured and no `mcpServers` service
 * loaded, nothing runs and handle.ts (the features' code) is never loaded: a tools-only host
 * loads what it loaded before.
 */
export function beyondTools(config: Config): BeyondTools {
  const level = config.features.logLevel
  let serverLog: ServerLog | undefined
  // The instance's entry in the service, while there is one: notifications before it are of no use.
  const entry: { server?: McpServer } = {}
  const { resources, prompts } = config.features
  return {
    ...(level !== 'off' && { onLogMessage: (params: unknown) => serverLog?.message(params) }),
    ...((resources || prompts) && { onFeatureNotification: (method: FeatureNotification, params: unknown) => entry.server?.notified(method, params) }),
    attach(ctx, connection) {
      if (level !== 'off') {
        serverLog = new ServerLog(connection.log, connection.clock, connection.redact, level, config.features.maxLogLinesPerMinute)
        ctx.effect(() => () => serverLog?.close(), 'mcp-client.serverLog')
        askForLogLevel(ctx, config, connection)
      }
      offerToServices(ctx, config, connection, entry)
    },
  }
}

/**
 * Enters the instance in the host's `mcpServers` service whenever one is loaded, and takes it out
 * when either goes. Cordis has no optional injection, so this is a sub-plugin of the instance that
 * waits for the service.
 */
function offerToServices(ctx: Context, config: Config, connection: ServerConnection, entry: { server?: McpServer }): void {
  ctx.inject(['mcpServers'], async (inner) => {
    const { McpServer } = await import('./handle.ts')
    const { serverName } = config
    const server = new McpServer(connection, config, connection.redact, connection.log, (kind, items) => inner.emit('mcp/list-changed', { serverName, kind, items }))
    inner.effect(() => {
      entry.server = server
      const leave = inner.mcpServers.add(server)
      return () => {
        if (entry.server === server) entry.server = undefined
        server.close()
        leave()
      }
    }, 'mcp-client.mcpServers')
    inner.on('mcp/state', (event) => {
      if (event.serverName === serverName && event.state.kind === 'connected') server.connected()
    })
  })
}

/**
 * A legacy server that declares logging is asked, on each connection, for the configured level
 * (logging/setLevel, MCP 2025-11-25 §server/utilities/logging). Messages below it are dropped here
 * anyway: a server may ignore the request, and a 2026-07-28 one takes no such request.
 */
function askForLogLevel(ctx: Context, config: Config, connection: ServerConnection): void {
  ctx.on('mcp/state', (event) => {
    if (event.serverName !== config.serverName || event.state.kind !== 'connected') return
    let session
    try {
      session = connection.live()
    } catch {
      return
    }
    if (session.capabilities.logging === undefined || session.era?.kind !== 'legacy') return
    const level = config.features.logLevel as (typeof LOG_LEVELS)[number]
    const deadline = startDeadline(config.connectTimeoutMs)
    session
      .request('logging/setLevel', { level }, deadline.signal)
      .catch((error: unknown) => {
        connection.log.warn('logging/setLevel %s was refused: %s', level, error instanceof Error ? error.message : String(error))
      })
      .finally(() => deadline.clear())
  })
}
