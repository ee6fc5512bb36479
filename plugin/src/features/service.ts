import { type Context, Service } from 'cordis'
import type { McpServer } from './handle.ts'

declare module 'cordis' {
  interface Context {
    mcpServers: McpServers
  }
}

/**
 * The `mcpServers` service: every loaded mcp-client instance, by serverName, for other plugins
 * (a `/mcp` command, a resource picker, a prompt menu) to inject. A host loads it once; each
 * instance enters itself while both are loaded (features/attach.ts) and leaves when either goes.
 */
export class McpServers extends Service {
  private readonly servers = new Map<string, McpServer>()

  constructor(ctx: Context) {
    super(ctx, 'mcpServers')
  }

  /** The instance serving `serverName`, or undefined when none is loaded. */
  get(serverName: string): McpServer | undefined {
    return this.servers.get(serverName)
  }

  /** Every loaded instance, in the order they were loaded. */
  list(): McpServer[] {
    return [...this.servers.values()]
  }

  /** Enters an instance; the returned function takes it out (an instance that took the name over since stays). */
  add(server: McpServer): () => void {
    this.servers.set(server.serverName, server)
    return () => {
      if (this.servers.get(server.serverName) === server) this.servers.delete(server.serverName)
    }
  }
}

export type { McpServer, FeatureCallOptions } from './handle.ts'
export type { ReadResult, ResourceContents } from './resources.ts'
export type { PromptResult } from './prompts.ts'
export type { Completion, CompletionRef } from './completions.ts'
