import type { Context, Fiber } from 'cordis'
import type { Config as ConfigType } from './config.ts'
import { ServerConnection } from './connection.ts'
import { beyondTools } from './features/attach.ts'
import { toolSetFor } from './features/resource-tools.ts'
import { withoutStack } from '@mcp-bridge/process'
import { BridgeError, errorMessage } from './errors.ts'
import { bindHostAsks, updateRootsInPlace } from './asks/client-asks.ts'
import { bindHostAuth } from './oauth/host-auth.ts'
import { reserveServerName } from './server-names.ts'

// The plugin API (name, inject, Config, apply), its configuration types, its errors and the
// contract of the host services it consumes. Nothing else: the untrusted-text rules are
// `@mcp-bridge/process`'s, the pure rules the kit judges by are `@mcp-bridge/plugin/rules`, and the
// reference host, the cordis.yml loader and the `mcp-bridge` CLI are `@mcp-bridge/host`.
export { Config } from './config.ts'
export type { ReconnectConfig, StdioConfig, StreamableHttpConfig, ListChangedConfig, LimitsConfig, ToolFilterConfig } from './config.ts'
export { publicToolName, MAX_PUBLIC_NAME_LENGTH } from './naming.ts'
export { BridgeError, type BridgeErrorCode } from './errors.ts'
export type * from './host-contract.ts'

export const name = 'mcp-client'
/**
 * `tools` is required. Cordis 4 has no optional injections (every injected name gates activation),
 * so the optional `attachments` and `llm` services are looked up with `ctx.get()` at call time.
 */
export const inject = ['tools']

export async function apply(ctx: Context, config: ConfigType): Promise<void> {
  let releaseName = () => {}
  ctx.effect(() => (releaseName = reserveServerName(ctx, config.serverName)), 'mcp-client.serverName')

  // The optional `mcpAuth` service, looked up when a connection needs to sign in (oauth/host-auth.ts).
  bindHostAuth(config, () => ctx.get('mcpAuth'))
  // The optional `mcpElicitation` and `mcpSampling` services, looked up as each connection opens and at each ask;
  // a change of roots alone is applied without a restart (asks/client-asks.ts).
  bindHostAsks(config, () => ctx.get('mcpElicitation'), () => ctx.get('mcpSampling'))
  ctx.effect(() => ctx.on('internal/update', (next: ConfigType, _noSave: boolean, restart: () => void | Promise<void>) => (updateRootsInPlace(config, next) ? undefined : restart())), 'mcp-client.roots')
  const logger = ctx.logger(`mcp:${config.serverName}`)
  // One traced handle: every `ctx.tools` access builds a fresh proxy, which 10,000 registrations feel.
  const tools = toolSetFor(ctx.tools, config, () => connection, () => ({ attachments: ctx.get('attachments'), llm: ctx.get('llm') }))
  const features = beyondTools(config)
  const connection = new ServerConnection({
    ...(features.onLogMessage && { onLogMessage: features.onLogMessage }),
    ...(features.onFeatureNotification && { onFeatureNotification: features.onFeatureNotification }),
    config,
    logger,
    tools,
    imageServices: () => ({ attachments: ctx.get('attachments'), llm: ctx.get('llm') }),
    noRetryOnFirstFailure: config.failOnStartupError,
    // The public way to follow an instance (host/types.ts): hosts and the kit listen for it.
    onState: (state, pid) => ctx.emit('mcp/state', { serverName: config.serverName, state, pid }),
  })
  ctx.effect(() => () => connection.dispose(), 'mcp-client.connection')
  features.attach(ctx, connection)
  stopConnectingWhenUnwanted(ctx, connection, () => releaseName())

  const outcome = await connection.ready
  // Stopped during activation (below): whatever the attempt reported, nobody is waiting for it.
  if (connection.status.kind === 'disposed') return
  if (outcome.error !== undefined && config.failOnStartupError) {
    // One line, no cause and no stack: Cordis prints the stack and then every cause, and the
    // connection's own message (already redacted) says what failed.
    const code = BridgeError.is(outcome.error) ? outcome.error.code : 'SERVER_UNAVAILABLE'
    throw withoutStack(
      new BridgeError(`mcp-client(${config.serverName}): initial connection or tool discovery failed (failOnStartupError): ${errorMessage(outcome.error)}`, code),
    )
  }
}

/**
 * Activation waits for the first connection (up to connectTimeoutMs), and Cordis runs the
 * instance's effects only once apply has returned. Three things can make that wait pointless, and
 * each stops connecting at once instead of waiting it out:
 * - the instance is disposed: announced at once, as an `internal/plugin` event with its uid cleared;
 * - the `tools` service it registers on leaves or is replaced (a host shutting down disposes it
 *   first): an `internal/service` event, and Cordis waits for this instance before it goes on;
 * - its configuration is updated: Cordis (4.0.0-rc.10) drops a restart asked for while apply is
 *   still running, so the new configuration would never be applied. The update waits for this
 *   activation to end (at once, now), then goes on as Cordis does it.
 */
function stopConnectingWhenUnwanted(ctx: Context, connection: ServerConnection, releaseName: () => void): void {
  let activating = true
  const stop = () => void connection.dispose()
  const injected: unknown = ctx.fiber.store?.tools?.value
  ctx.on('internal/plugin', (fiber) => {
    if (fiber !== ctx.fiber || fiber.uid !== null) return
    stop()
    // Its tools are already unregistered (the stop's first step): an instance that takes the name
    // over, as a loader that replaces entries all at once does, need not wait for the child to exit.
    releaseName()
  })
  ctx.on('internal/service', (name, value) => {
    if (activating && name === 'tools' && (value === undefined || (injected !== undefined && value !== injected))) stop()
  })
  // Cordis keeps an `internal/update` hook on the fiber itself, not among the instance's effects:
  // it outlives a restart (a reload with a new config) and holds this connection, so 100 reloads
  // held 300 connections. It is only needed while activating, so it goes when activation ends,
  // however it ends (connected, failed, stopped by one of the three above).
  const offUpdate = ctx.on('internal/update', function (this: Fiber, _config, _noSave, next) {
    if (!activating) return next()
    stop()
    return this.await().then(next, next)
  })
  void connection.ready.then(() => {
    activating = false
    offUpdate()
  })
}
