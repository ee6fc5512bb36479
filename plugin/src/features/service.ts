import { type Context, Service } from 'cordis'
import type { McpServer } from './handle.ts'
import type { ListKind } from './lists.ts'

declare module 'cordis' {
  interface Context {
    mcpServers: McpServers
  }
  interface Events {
    /**
     * An instance's resources, resource templates or prompts changed (list_changed): `items` is
     * the new list when the service held one and re-listed it (then it is what the next list call
     * returns), empty when nothing was listed yet. A failed re-list keeps the old list and is not told.
     */
    'mcp/list-changed'(event: ListChangedEvent): void
  }
}

export interface ListChangedEvent {
  serverName: string
  kind: ListKind
  items: Record<string, unknown>[]
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
export type { ListKind } from './lists.ts'
export type { ResourceUpdate, UpdateListener } from './subscriptions.ts'
