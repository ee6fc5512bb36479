import { createRequire } from 'node:module'
import { Context, type Fiber } from 'cordis'
import * as bridge from '../../src/index.ts'
import type { ConnectionState } from '../../src/index.ts'
import { attachConsoleLogger, ConnectionStatus, ToolRegistry } from '@mcp-bridge/host'
import { afterTest } from './cleanup.ts'

const require = createRequire(import.meta.url)
export const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
export const filesystemServer = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js')

export interface TestHost {
  ctx: Context
  tools: ToolRegistry
  logs: string[]
  /** Loads one bridge instance and waits for its activation to settle. */
  load(config: Record<string, unknown>): Promise<Fiber>
  dispose(): Promise<void>
}

/** A real Cordis root with the reference tools service and every log line captured; disposed after the test. */
export async function startHost(): Promise<TestHost> {
  const ctx = new Context()
  const logs: string[] = []
  attachConsoleLogger(ctx, { level: 'debug', write: (line) => logs.push(line) })
  // Before any instance, so that it records every instance's states from the first.
  await ctx.plugin(ConnectionStatus)
  const registry = ctx.plugin(ToolRegistry)
  await registry
  return afterTest<TestHost>({
    ctx,
    tools: ctx.tools as ToolRegistry,
    logs,
    load: async (config) => {
      const fiber = ctx.plugin(bridge, config)
      await fiber
      return fiber
    },
    dispose: async () => {
      await registry.dispose()
    },
  }, (host) => host.dispose())
}

export function everythingStdio(serverName = 'everything', extra: Record<string, unknown> = {}) {
  return { transport: 'stdio', serverName, command: process.execPath, args: [everythingServer, 'stdio'], ...extra }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Resolves once `predicate` holds, checking after every registry change. */
export function whenTools(host: TestHost, predicate: (names: string[]) => boolean): Promise<string[]> {
  return new Promise((resolve) => {
    const check = () => {
      const names = host.tools.list().map((t) => t.name)
      if (!predicate(names)) return false
      dispose()
      resolve(names)
      return true
    }
    const dispose = host.ctx.on('tools/change', () => void check())
    check()
  })
}

/** The instance's last `mcp/state` event, as the host's ConnectionStatus service recorded it. */
function lastState(fiber: Fiber) {
  const status = fiber.ctx.get('mcpStatus') as ConnectionStatus | undefined
  if (!status) throw new Error('the host has no ConnectionStatus service (startHost and createHost plug one)')
  return status.get((fiber.config as { serverName: string }).serverName)
}

export function stateOf(fiber: Fiber): ConnectionState | undefined {
  return lastState(fiber)?.state
}

export function pidOf(fiber: Fiber): number {
  const pid = lastState(fiber)?.pid
  if (pid === undefined) throw new Error('the instance has no live stdio child')
  return pid
}
