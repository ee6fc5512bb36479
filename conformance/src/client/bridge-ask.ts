import type { McpServer } from '@mcp-bridge/plugin/features'
import type { BeyondAsk, BeyondOutcome } from './adapter.ts'
import { subscribeThroughBridge, unsubscribeThroughBridge, updatesHeard } from './bridge-subscriptions.ts'

/** The features the bridge offers beyond tools, as the driver protocol names them. */
export const BRIDGE_BEYOND_FEATURES = ['resources', 'prompts', 'completions', 'roots', 'elicitation']

/** What a scenario's instance is configured with so that those features are judged (the plugin's are off by default). */
export const BRIDGE_BEYOND_CONFIG = { resources: true, prompts: true, completions: true, instructions: true }

/**
 * One verb beyond tools, answered through the plugin's `mcpServers` service as a host's
 * programmatic caller would use it, in the driver protocol's shapes (conformance/FORMAT.md).
 */
export async function askBridge(server: McpServer | undefined, request: BeyondAsk): Promise<BeyondOutcome> {
  const started = performance.now()
  try {
    if (!server) throw new Error('the instance is not in the mcpServers service (it failed to load)')
    const value = await answer(server, request)
    return { ok: true, value, ms: Math.round(performance.now() - started) }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), ms: Math.round(performance.now() - started) }
  }
}

async function answer(server: McpServer, request: BeyondAsk): Promise<Record<string, unknown>> {
  switch (request.op) {
    case 'resources':
      return { resources: await server.listResources() }
    case 'templates':
      return { resourceTemplates: await server.listResourceTemplates() }
    case 'read':
      return { ...(await server.readResource(request.uri)) }
    case 'prompts':
      return { prompts: await server.listPrompts() }
    case 'prompt':
      return { ...(await server.getPrompt(request.name, request.args)) }
    case 'complete':
      return { completion: await server.complete(request.ref, request.argument) }
    case 'subscribe':
      return subscribeThroughBridge(server, request.uri)
    case 'unsubscribe':
      return unsubscribeThroughBridge(server, request.uri)
    case 'updates':
      return updatesHeard(server)
    case 'instructions': {
      const instructions = server.instructions()
      return instructions === undefined ? {} : { instructions }
    }
    case 'setRoots':
      // A configuration change, not a call of the mcpServers service: bridge-roots.ts.
      throw new Error('roots change through a configuration update of the instance (bridge-roots.ts)')
  }
}
