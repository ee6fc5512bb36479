import type { Context } from 'cordis'
import { withoutStack } from '@mcp-bridge/process'
import { BridgeError } from './errors.ts'

/**
 * serverNames in use, per `tools` service: the public names a serverName makes can only collide
 * on one service, so separate hosts, isolated services and tests never collide. (A Cordis without
 * the fiber's injected store falls back to one set per root.) Each name maps to its holder.
 */
const reserved = new WeakMap<object, Map<string, object>>()

/**
 * Reserves `serverName` for the instance of `ctx` until the returned release is called (once is
 * enough; a name another instance holds since is left alone). Throws INVALID_CONFIG, with the fix,
 * if another instance holds it.
 */
export function reserveServerName(ctx: Context, serverName: string): () => void {
  const service: unknown = ctx.fiber.store?.tools?.value
  const scope = (typeof service === 'object' && service !== null) || typeof service === 'function' ? service : ctx.root
  const names = reserved.get(scope) ?? new Map<string, object>()
  reserved.set(scope, names)
  if (names.has(serverName)) {
    // A configuration error: its message says everything, a stack trace of the plugin would not.
    throw withoutStack(
      new BridgeError(`mcp-client: serverName "${serverName}" is already used by another mcp-client instance; give each server a unique serverName`, 'INVALID_CONFIG'),
    )
  }
  const holder = {}
  names.set(serverName, holder)
  return () => {
    if (names.get(serverName) === holder) names.delete(serverName)
  }
}
