import { expect } from 'vitest'
import type { McpServer } from '../../src/features/handle.ts'
import { McpServers } from '../../src/features/service.ts'
import { afterTest } from './cleanup.ts'
import { startHost, type TestHost } from './host.ts'

/** A reference host with the `mcpServers` service loaded, disposed after the test. */
export async function hostWithService(): Promise<TestHost> {
  const host = await startHost()
  const service = host.ctx.plugin(McpServers)
  await service
  afterTest(service, (fiber) => fiber.dispose())
  return host
}

/**
 * The instance's entry in the `mcpServers` service. An instance enters it from a sub-plugin that
 * first imports the features' code, so the entry can come a moment after `load()` resolves (on a
 * loaded machine, the first import takes a while): wait for it, under expect.poll's bound.
 */
export async function servedAs(host: TestHost, serverName: string): Promise<McpServer> {
  await expect.poll(() => host.ctx.mcpServers.get(serverName)).toBeDefined()
  return host.ctx.mcpServers.get(serverName)!
}
