import { randomUUID } from 'node:crypto'
import type { ToolView } from '../adapter.ts'
import type { DEFAULT_DRIVER_BOUNDS } from '../timing.ts'
import { DriverChannel } from './channel.ts'
import type { DriverTool } from './protocol.ts'

/**
 * One driven client as the kit sees it: its driver's channel and what the driver has told so far
 * (tools, logs, features), then what its close left behind. Shared by the connect, call and
 * dispose of the session, each in its own module.
 */
export class DriverState {
  tools: ToolView[] = []
  /** connecting | connected | stopped */
  state = 'connecting'
  features: string[] = []
  orphans: number[] = []
  closeMs: number | undefined
  closeFinished = true
  connectUnanswered = false
  leftovers: number[] = []
  readonly logs: string[] = []
  readonly listeners = new Set<() => void>()
  /**
   * Every process of the driver's tree inherits this, unless a client scrubs it: a process that
   * left the tree (setsid, a double fork) is still the run's.
   */
  readonly runMark = `MCP_CONFORMANCE_DRIVER_RUN=${randomUUID()}`
  readonly channel: DriverChannel

  constructor(
    command: string,
    /** The kit's bounds on the driver's answers, for this client's config. */
    readonly bounds: typeof DEFAULT_DRIVER_BOUNDS,
    /** The fixture's wire file, in its servers' argv: how the kit finds them (stdio only). */
    readonly marker: string | undefined,
  ) {
    const [markName, markValue] = this.runMark.split('=') as [string, string]
    this.channel = new DriverChannel(command, (event) => (event.event === 'tools' ? this.setTools(event.tools) : this.logs.push(event.text)), { ...process.env, [markName]: markValue })
  }

  setTools(next: DriverTool[]): void {
    this.tools = next.map(toolView)
    for (const listener of this.listeners) listener()
  }
}

function toolView(tool: DriverTool): ToolView {
  return { name: tool.name, rawName: tool.rawName ?? tool.name, description: tool.description ?? '', parameters: tool.inputSchema ?? {} }
}
