import { Context, Service } from 'cordis'
import type { McpStateEvent } from '@mcp-bridge/plugin'

/**
 * The reference status service (`mcpStatus`): the last `mcp/state` event of every bridge instance
 * under this root, by serverName. It only listens to the public event, so a host that wants
 * something else (a dashboard, metrics) listens the same way.
 */
export class ConnectionStatus extends Service {
  private readonly states = new Map<string, McpStateEvent>()

  constructor(ctx: Context) {
    super(ctx, 'mcpStatus')
    const states = this.states
    ctx.on('mcp/state', (event) => void states.set(event.serverName, event))
  }

  /** The instance's last state and pid; undefined for a serverName never seen. */
  get(serverName: string): McpStateEvent | undefined {
    return this.states.get(serverName)
  }

  list(): McpStateEvent[] {
    return [...this.states.values()]
  }
}
