import { createHash } from 'node:crypto'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CallToolResultSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { ClientAdapter, ClientSession, ServerTarget, ToolView } from '../../src/client/adapter.ts'
import { callAsTask, type TaskFaults } from './naive-tasks.ts'
import { naiveTransport, type TransportFaults } from './naive-transport.ts'

/** Bugs real clients have shipped; each one switches off one thing our plugin does right. */
export interface Faults extends TransportFaults, TaskFaults {
  /** Sanitise and truncate names, but never append the identity hash. */
  noHashSuffix?: boolean
  /** Register tools one by one into the host, keeping whatever got in before a conflict. */
  noRollback?: boolean
  /** Give up when the connection is lost. */
  noReconnect?: boolean
  /** Re-sync without a generation check: the first fetch of a burst is applied last. */
  staleWins?: boolean
  /** Send the public name in tools/call. */
  publicNameOnWire?: boolean
  /** Close the connection on dispose but leave the tools registered. */
  leaveToolsOnDispose?: boolean
  /** Apply toolCallTimeoutMs twenty times over (a unit slip, or a default in its place). */
  lateTimeout?: boolean
  /** Apply connectTimeoutMs twenty times over. */
  lateConnectTimeout?: boolean
  /** Retry a refused connection (HTTP 401) after a short backoff, with the same credentials. */
  retryUnauthorized?: boolean
  /** Leave the server running when its initialize failed. */
  keepServerOnFailedConnect?: boolean
  /** On a conflict, take back the added tools only: changed and removed ones stay as the refused list has them. */
  rollbackAddsOnly?: boolean
  /** Bridge every listed tool, whatever tools.include and tools.exclude say. */
  ignoreToolFilters?: boolean
  /** Say nothing of a filter entry that matches none of the listed tools (a typo goes unnoticed). */
  silentFilterTypos?: boolean
}

/**
 * A deliberately small MCP bridge on the raw SDK, used to prove the kit catches real bugs: with
 * no faults it behaves well enough to pass the checks the faults then break.
 */
export function naiveClient(faults: Faults = {}): ClientAdapter {
  return {
    name: `naive client ${JSON.stringify(faults)}`,
    routes: { vision: undefined, 'text-only': undefined },
    start: (target, config) => startNaive(target, config, faults),
    async registerForeign(session, publicName) {
      ;(session as NaiveSession).host.set(publicName, { name: publicName, rawName: '(foreign)', description: '', parameters: {}, foreign: true })
    },
  }
}

interface HostTool extends ToolView {
  foreign?: boolean
}

interface NaiveSession extends ClientSession {
  host: Map<string, HostTool>
}

/** tools.include / tools.exclude (raw names or `*` globs), as plugin/README.md describes them: exclude wins. */
function toolFilter(config: Record<string, unknown>, serverName: string) {
  const { include = [], exclude = [] } = (config.tools ?? {}) as { include?: string[]; exclude?: string[] }
  const matches = (pattern: string, raw: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(raw)
  return {
    bridged: (raw: string) => (!include.length || include.some((pattern) => matches(pattern, raw))) && !exclude.some((pattern) => matches(pattern, raw)),
    /** Entries that match none of the listed tools: a typo, most likely. */
    unmatched: (names: string[]) =>
      [...include.map((pattern) => ['include', pattern]), ...exclude.map((pattern) => ['exclude', pattern])]
        .filter(([, pattern]) => !names.some((name) => matches(pattern!, name)))
        .map(([field, pattern]) => `tools.${field} entry "${pattern}" matches none of the tools server "${serverName}" lists: check the name`),
  }
}

function publicName(serverName: string, raw: string, hash: boolean): string {
  const joined = `mcp_${'_'}${serverName}__${raw}`
  const normalized = joined.replace(/[^A-Za-z0-9_-]/g, '_')
  if (!hash) return normalized.slice(0, 64)
  if (normalized === joined && normalized.length <= 64) return normalized
  return `${normalized.slice(0, 51)}_${createHash('sha256').update(`${serverName}\0${raw}`).digest('hex').slice(0, 12)}`
}

async function startNaive(target: ServerTarget, config: Record<string, unknown>, faults: Faults): Promise<NaiveSession> {
  const serverName = String(config.serverName ?? 'fixture')
  const host = new Map<string, HostTool>()
  const listeners = new Set<() => void>()
  const logs: string[] = []
  let state = 'connecting'
  let client: Client
  let transport: Transport
  let fetches = 0
  const changed = () => listeners.forEach((listener) => listener())

  type Listed = Array<{ name: string; description?: string; inputSchema: Record<string, unknown>; execution?: { taskSupport?: string } }>
  let staleList: Listed | undefined
  const filter = toolFilter(config, serverName)
  const bridged = faults.ignoreToolFilters ? () => true : filter.bridged
  let warnedTypos = ''
  /** Raw names called as tasks: "required", or "optional" with preferTaskCalls, on a server that declares tools/call tasks. */
  const taskTools = new Set<string>()
  const apply = (listed: Listed) => {
    const tools = listed.filter((tool) => bridged(tool.name))
    const typos = faults.silentFilterTypos ? [] : filter.unmatched(listed.map((tool) => tool.name))
    // Once per distinct set of unmatched entries, as the plugin does.
    if (typos.join('\n') !== warnedTypos) for (const line of typos) logs.push(`[warn] ${line}`)
    warnedTypos = typos.join('\n')
    const serverTasks = client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined
    taskTools.clear()
    for (const tool of tools) {
      const support = tool.execution?.taskSupport
      const preferred = faults.optionalAsTask || (config.preferTaskCalls === true && !faults.ignorePreferTaskCalls)
      if (serverTasks && (support === 'required' || (support === 'optional' && preferred))) taskTools.add(tool.name)
    }
    const previous = [...host.values()].filter((t) => !t.foreign)
    for (const tool of previous) host.delete(tool.name)
    const next = tools.map((t) => ({ name: publicName(serverName, t.name, !faults.noHashSuffix), rawName: t.name, description: t.description ?? '', parameters: t.inputSchema }))
    if (faults.noRollback) {
      for (const tool of next) {
        if (host.has(tool.name)) {
          logs.push(`[error] conflict on ${tool.name}`)
          break
        }
        host.set(tool.name, tool)
      }
    } else if (next.every((tool) => !host.has(tool.name))) {
      for (const tool of next) host.set(tool.name, tool)
    } else if (faults.rollbackAddsOnly) {
      logs.push('[error] conflict: added tools taken back')
      const before = new Set(previous.map((tool) => tool.rawName))
      for (const tool of next) if (before.has(tool.rawName) && !host.has(tool.name)) host.set(tool.name, tool)
    } else {
      logs.push('[error] conflict: previous generation kept')
      for (const tool of previous) host.set(tool.name, tool)
    }
    changed()
  }

  const sync = async () => {
    const id = ++fetches
    const { tools } = await client.listTools()
    // The stale variant has no generation check: an older list it fetched lands after the new one.
    if (id === 1) staleList = tools
    apply(faults.staleWins && staleList ? staleList : tools)
  }

  const connect = async () => {
    client = new Client({ name: 'naive', version: '0' })
    transport = naiveTransport(target, config, faults)
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void sync().catch(() => {}))
    client.onclose = () => {
      // Only a connection that was up is lost; a failed attempt is the caller's to report.
      if (state !== 'connected') return
      state = faults.noReconnect ? 'stopped' : 'reconnecting'
      logs.push('[warn] connection lost')
      if (!faults.noReconnect) setTimeout(() => void connect().catch(() => (state = 'stopped')), 50)
    }
    // The bug keeps the server: the SDK's own close on a failed connect must not stop it either.
    if (faults.keepServerOnFailedConnect) transport.close = async () => {}
    try {
      const connectTimeout = typeof config.connectTimeoutMs === 'number' ? config.connectTimeoutMs * (faults.lateConnectTimeout ? 20 : 1) : undefined
      await client.connect(transport, { timeout: connectTimeout })
    } catch (error) {
      // A server that failed its initialize is stopped, unless the bug keeps it.
      if (!faults.keepServerOnFailedConnect) await transport.close().catch(() => {})
      throw error
    }
    await sync()
    state = 'connected'
  }
  const firstAttempt = async (retry = faults.retryUnauthorized): Promise<void> => {
    try {
      await connect()
    } catch (error) {
      logs.push(`[warn] connection attempt failed: ${String(error)}`)
      // The bug: the same credentials, tried once more after a short backoff.
      if (retry && state !== 'disposed' && /401|Unauthorized/.test(String(error))) setTimeout(() => void firstAttempt(false), 100)
    }
  }
  await firstAttempt()

  return {
    host,
    tools: () => [...host.values()].filter((t) => !t.foreign),
    onToolsChange: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async call(name, args, options) {
      const tool = host.get(name)
      if (!tool || tool.foreign) return { isError: true, code: 'UNKNOWN_TOOL', content: [{ type: 'text', text: `unknown tool ${name}` }] }
      try {
        const configured = typeof config.toolCallTimeoutMs === 'number' ? config.toolCallTimeoutMs : undefined
        const timeout = configured !== undefined && faults.lateTimeout ? configured * 20 : configured
        const wireName = faults.publicNameOnWire ? tool.name : tool.rawName
        const maxTotalTimeoutMs = typeof config.maxTotalTimeoutMs === 'number' ? config.maxTotalTimeoutMs : 600_000
        const serverTasks = client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined
        const asTask = faults.taskEverything ? serverTasks : taskTools.has(tool.rawName) && !faults.plainTaskCalls
        const result = asTask
          ? await callAsTask(client, wireName, args, { signal: options.signal, timeout, maxTotalTimeoutMs }, faults)
          : // A raw request: the SDK's callTool refuses a task-required tool itself, and the bug is sending it anyway.
            await client.request({ method: 'tools/call', params: { name: wireName, arguments: args } }, CallToolResultSchema, { signal: options.signal, timeout })
        const text = (result.content as Array<{ type: string; text?: string }>).map((b) => b.text ?? `[${b.type}]`).join('\n')
        return { isError: result.isError === true, code: result.isError ? 'TOOL_ERROR' : undefined, content: [{ type: 'text', text }], value: result }
      } catch (error) {
        // An expired HTTP session: start a new one (never replaying the call).
        if (error instanceof StreamableHTTPError && error.code === 404 && !faults.noReconnect) {
          state = 'reconnecting'
          void connect().catch(() => (state = 'stopped'))
        }
        return { isError: true, code: 'SERVER_UNAVAILABLE', content: [{ type: 'text', text: String(error) }] }
      }
    },
    state: () => state,
    logs: () => logs,
    pids: () => (transport instanceof StdioClientTransport && transport.pid !== null ? [transport.pid] : []),
    attachmentCount: () => 0,
    async dispose() {
      state = 'disposed'
      if (!faults.leaveToolsOnDispose) for (const [name, tool] of host) if (!tool.foreign) host.delete(name)
      await client.close().catch(() => {})
    },
  }
}
