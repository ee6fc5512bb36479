import type { ClientAdapter, ClientSession, ServerTarget } from '../adapter.ts'
import { DEFAULT_DRIVER_BOUNDS, driverBounds } from '../timing.ts'
import { driverAsks } from '../client-asks.ts'
import { driverAuth } from './auth.ts'
import { connectDriver } from './connect.ts'
import type { DriverOptions, DriverServer } from './protocol.ts'
import { driverSession } from './session.ts'
import { DriverState } from './state.ts'

/** The kit's own bounds on a driver's answers: past them the answer is "did not return", not a hang; never below a timeout the scenario configures (driverBounds). */
export const DRIVER_BOUNDS = DEFAULT_DRIVER_BOUNDS

/**
 * Any MCP client, through a driver program speaking the driver protocol (protocol.ts). The client
 * is judged as a client, not as a bridge: only the expectations every MCP client must meet apply
 * (applicability.ts), and the features its driver declares decide the rest.
 */
export function driverAdapter(command: string, name = `driver: ${command}`): ClientAdapter {
  return {
    name,
    kind: 'client',
    routes: { vision: undefined, 'text-only': undefined },
    start: (target, config) => startDriver(command, target, config),
  }
}

/** Pure: the server as the driver is told about it; the fixture's files travel in argv, not env. */
export function driverServer(target: ServerTarget, config: Record<string, unknown>): { server: DriverServer; marker?: string } {
  if (target.transport === 'http') return { server: { transport: 'http', url: target.url } }
  const { MCP_FIXTURE_WIRE: wire, MCP_FIXTURE_STATE: state, ...rest } = target.env
  // A client that passes its child no environment (a strict allowlist) must still leave a wire log.
  const args = [...target.args, ...(wire ? ['--wire', wire] : []), ...(state ? ['--state', state] : [])]
  const env = { ...rest, ...((config.env as Record<string, string> | undefined) ?? {}) }
  return { server: { transport: 'stdio', command: target.command, args, env }, marker: wire }
}

/** Pure: the scenario's client settings, in the driver protocol's neutral words (secrets read from `env`). */
export function driverOptions(config: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): DriverOptions {
  const options: DriverOptions = {}
  if (typeof config.toolCallTimeoutMs === 'number') options.callTimeoutMs = config.toolCallTimeoutMs
  if (typeof config.connectTimeoutMs === 'number') options.connectTimeoutMs = config.connectTimeoutMs
  const auth = driverAuth(config.auth, env)
  if (auth) options.auth = auth
  const asks = driverAsks(config)
  if (asks) options.asks = asks
  return options
}

/**
 * Starts the driver and has it connect its client. The mark in the driver's environment is set
 * before the driver starts, so every process of its tree carries it (state.ts).
 */
async function startDriver(command: string, target: ServerTarget, config: Record<string, unknown>): Promise<ClientSession> {
  const { server, marker } = driverServer(target, config)
  const driver = new DriverState(command, driverBounds(config), marker)
  await connectDriver(driver, server, driverOptions(config, process.env))
  return driverSession(driver)
}
