import type { CallOutcome, ClientAdapter, ClientSession, ServerTarget, ToolView } from '../adapter.ts'
import { DriverChannel, DriverError } from './channel.ts'
import { survivors } from '../processes.ts'
import { randomUUID } from 'node:crypto'
import { descendants, processesWith, processesWithEnv } from './processes.ts'
import type { DriverCallResult, DriverOptions, DriverServer, DriverTool } from './protocol.ts'
import { DEFAULT_DRIVER_BOUNDS, driverBounds } from '../timing.ts'

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

/** Pure: the scenario's client settings, in the driver protocol's neutral words. */
export function driverOptions(config: Record<string, unknown>): DriverOptions {
  const options: DriverOptions = {}
  if (typeof config.toolCallTimeoutMs === 'number') options.callTimeoutMs = config.toolCallTimeoutMs
  if (typeof config.connectTimeoutMs === 'number') options.connectTimeoutMs = config.connectTimeoutMs
  return options
}

async function startDriver(command: string, target: ServerTarget, config: Record<string, unknown>): Promise<ClientSession> {
  let tools: ToolView[] = []
  let state = 'connecting'
  let features: string[] = []
  let orphans: number[] = []
  let closeMs: number | undefined
  let closeFinished = true
  let connectUnanswered = false
  let leftovers: number[] = []
  const logs: string[] = []
  const listeners = new Set<() => void>()
  const setTools = (next: DriverTool[]) => {
    tools = next.map(toolView)
    for (const listener of listeners) listener()
  }
  // Every process of the driver's tree inherits this, unless a client scrubs it: a process that
  // left the tree (setsid, a double fork) is still the run's.
  const runMark = `MCP_CONFORMANCE_DRIVER_RUN=${randomUUID()}`
  const [markName, markValue] = runMark.split('=') as [string, string]
  const channel = new DriverChannel(command, (event) => (event.event === 'tools' ? setTools(event.tools) : logs.push(event.text)), { ...process.env, [markName]: markValue })
  const { server, marker } = driverServer(target, config)
  const bounds = driverBounds(config)
  const connected = await channel.request({ op: 'connect', server, options: driverOptions(config) }, bounds.connectMs)
  if (connected.ok) {
    features = connected.features ?? []
    // Asked once: a client that re-lists on request would otherwise be charged for the kit's polling.
    const listed = await channel.request({ op: 'list' }, bounds.listMs)
    if (listed.ok) setTools(listed.tools ?? [])
    else logs.push(`[driver] list failed: ${listed.error}`)
    state = 'connected'
  } else if (await exitedNow(channel)) {
    // A driver that cannot start (a typo in --driver, a missing package) is the harness's problem.
    await channel.end(0)
    throw new DriverError(`the driver exited before it connected: ${connected.error}`)
  } else if ('unanswered' in connected) {
    // No answer at all: a driver that never speaks, or a client stuck connecting. The runner
    // tells them apart by whether the client reached the fixture (run-scenario.ts).
    connectUnanswered = true
    state = 'stopped'
    logs.push(`[driver] ${connected.error}`)
  } else {
    state = 'stopped'
    logs.push(`[driver] connect failed: ${connected.error}`)
  }

  /** What the driver's tree left running once it ended (the runner judges, reports and stops them). */
  async function findLeftovers(family: Set<number>): Promise<void> {
    for (const pid of processesWithEnv(runMark)) family.add(pid)
    // The group kill needs a moment to land; what is still alive after it escaped the group.
    leftovers = await survivors([...family])
  }

  return {
    tools: () => tools,
    onToolsChange: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    features: () => features,
    async call(publicName, args, options) {
      const callId = channel.peekId()
      const abort = () => void channel.request({ op: 'abort', call: callId }, bounds.callMs)
      options.signal?.addEventListener('abort', abort, { once: true })
      const started = performance.now()
      const answer = await channel.request({ op: 'call', name: publicName, args }, bounds.callMs)
      options.signal?.removeEventListener('abort', abort)
      const ms = Math.round(performance.now() - started)
      if (answer.ok) return outcome(answer.result ?? {}, ms)
      if ('unanswered' in answer) return { isError: true, code: 'NOT_RETURNED', unanswered: `the call had not returned after ${bounds.callMs} ms`, content: [{ type: 'text', text: answer.error }] }
      return { isError: true, code: 'CLIENT_ERROR', content: [{ type: 'text', text: answer.error }], ms }
    },
    state: () => state,
    logs: () => logs,
    protocolViolations: () => channel.violations,
    pids: () => (marker ? processesWith(marker) : []),
    orphans: () => orphans,
    attachmentCount: () => 0,
    closeMs: () => closeMs,
    closeFinished: () => closeFinished,
    connectUnanswered: () => connectUnanswered,
    leftovers: () => leftovers,
    async dispose() {
      // What the driver started, known while it still runs: a process that left its group
      // (setsid) is found by descent, not by the group kill that ends the driver.
      const family = new Set(channel.pid ? descendants(channel.pid) : [])
      if (connectUnanswered) {
        closeFinished = false
        await channel.end(0)
        return await findLeftovers(family)
      }
      const asked = performance.now()
      const closed = await channel.request({ op: 'close' }, bounds.closeMs)
      closeMs = Math.round(performance.now() - asked)
      if (!closed.ok) logs.push(`[driver] close failed: ${closed.error}`)
      if ('unanswered' in closed) closeFinished = false
      state = 'stopped'
      // Judged while the driver still runs: once it exits, its children lose their stdin and
      // exit too, which would hide a client that never stopped its server.
      if (marker) orphans = await lingering(marker)
      for (const pid of channel.pid ? descendants(channel.pid) : []) family.add(pid)
      await channel.end()
      await findLeftovers(family)
    },
  }
}

/** Whether the driver process has ended (checked without waiting more than a moment). */
async function exitedNow(channel: DriverChannel): Promise<boolean> {
  return Promise.race([channel.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 100))])
}

/** The servers still running 2 s after the client answered close (exit is not instantaneous). */
async function lingering(marker: string): Promise<number[]> {
  for (let i = 0; i < 40 && processesWith(marker).length; i++) await new Promise((resolve) => setTimeout(resolve, 50))
  return processesWith(marker)
}

function toolView(tool: DriverTool): ToolView {
  return { name: tool.name, rawName: tool.rawName ?? tool.name, description: tool.description ?? '', parameters: tool.inputSchema ?? {} }
}

/** A client's result as the kit's call outcome: text blocks as text, images as media type and size. */
function outcome(result: DriverCallResult, ms: number): CallOutcome {
  const content = (result.content ?? []).map((block) =>
    block.type === 'image' ? { type: 'image' as const, ref: `${block.mimeType ?? '?'}:${block.data?.length ?? 0}` } : { type: 'text' as const, text: block.text ?? `[${block.type}]` },
  )
  return result.isError ? { isError: true, code: 'TOOL_ERROR', content, ms } : { isError: false, content, value: { structuredContent: result.structuredContent }, ms }
}
