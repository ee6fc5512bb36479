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
