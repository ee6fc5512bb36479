import type { Context } from 'cordis'
import type { Config as ConfigType } from './config.ts'
import { ServerConnection } from './connection.ts'
import { BridgeError, errorMessage, withoutStack } from './errors.ts'
import { ToolSet } from './tool-set.ts'

export { Config } from './config.ts'
export type { ReconnectConfig, StdioConfig, StreamableHttpConfig, ListChangedConfig, LimitsConfig } from './config.ts'
export type { ToolFilterConfig } from './tool-filter.ts'
export { publicToolName, MAX_PUBLIC_NAME_LENGTH } from './naming.ts'
export { declaresToolTasks, planTools, type TaskPolicy } from './discovery.ts'
export { BridgeError, type BridgeErrorCode } from './errors.ts'
export { childEnvironment } from './env.ts'
export { linearRegExp, withinMatchBudget } from './linear-regexp.ts'
export { withCredentialsAsHeader } from './transport.ts'
export {
  configSecrets,
  createRedactor,
  isSecretName,
  isSecretValue,
  quoteUntrusted,
  redactSecrets,
  redactUrl,
  urlSecrets,
  REDACTED,
  type Redact,
} from './redact.ts'
export { ServerConnection, type ConnectionState } from './connection.ts'
export type { McpResult } from './definition.ts'
// The contract between the plugin and its host; the reference host services themselves are in
// `@mcp-bridge/plugin/host`, the cordis.yml loader in `@mcp-bridge/plugin/loader`.
export type * from './host/types.ts'

export const name = 'mcp-client'
/**
 * `tools` is required. Cordis 4 has no optional injections (every injected name gates activation),
 * so the optional `attachments` and `llm` services are looked up with `ctx.get()` at call time.
 */
export const inject = ['tools']

/** serverNames in use, per Cordis root, so separate hosts (and tests) never collide. */
const reserved = new WeakMap<object, Set<string>>()

export async function apply(ctx: Context, config: ConfigType): Promise<void> {
  const names = reserved.get(ctx.root) ?? new Set<string>()
  reserved.set(ctx.root, names)
  ctx.effect(() => {
    if (names.has(config.serverName)) {
      // A configuration error: its message says everything, a stack trace of the plugin would not.
      throw withoutStack(
        new BridgeError(
          `mcp-client: serverName "${config.serverName}" is already used by another mcp-client instance; give each server a unique serverName`,
          'INVALID_CONFIG',
        ),
      )
    }
    names.add(config.serverName)
    return () => names.delete(config.serverName)
  }, 'mcp-client.serverName')

  const logger = ctx.logger(`mcp:${config.serverName}`)
  // One traced handle: every `ctx.tools` access builds a fresh proxy, which 10,000 registrations feel.
  const tools = new ToolSet(ctx.tools)
  const connection = new ServerConnection({
    config,
    logger,
    tools,
    imageServices: () => ({ attachments: ctx.get('attachments'), llm: ctx.get('llm') }),
    noRetryOnFirstFailure: config.failOnStartupError,
    // The public way to follow an instance (host/types.ts): hosts and the kit listen for it.
    onState: (state, pid) => ctx.emit('mcp/state', { serverName: config.serverName, state, pid }),
  })
  ctx.effect(() => () => connection.dispose(), 'mcp-client.connection')
  // Cordis runs the effects above only once apply has returned, so a dispose during activation
  // would first wait out the connection attempt (connectTimeoutMs). The fiber's disposal is
  // announced at once, as an `internal/plugin` event with its uid cleared: stop connecting then.
  ctx.on('internal/plugin', (fiber) => {
    if (fiber === ctx.fiber && fiber.uid === null) void connection.dispose()
  })

  const outcome = await connection.ready
  if (outcome.error !== undefined && config.failOnStartupError) {
    // One line, no cause and no stack: Cordis prints the stack and then every cause, and the
    // connection's own message (already redacted) says what failed.
    const code = BridgeError.is(outcome.error) ? outcome.error.code : 'SERVER_UNAVAILABLE'
    throw withoutStack(
      new BridgeError(`mcp-client(${config.serverName}): initial connection or tool discovery failed (failOnStartupError): ${errorMessage(outcome.error)}`, code),
    )
  }
}
