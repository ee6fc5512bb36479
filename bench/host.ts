/**
 * Shared plumbing: a real Cordis root with the reference `tools` service, the plugin loaded the
 * way production loads it, raw SDK clients for the baselines, and bounded waits.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from '@modelcontextprotocol/client'
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio'
import * as bridge from '@mcp-bridge/plugin'
import { attachConsoleLogger, ConnectionStatus, ToolRegistry } from '@mcp-bridge/host'
import { Context, type Fiber } from 'cordis'

export { bridge }

export interface Host {
  ctx: Context
  tools: ToolRegistry
  /** Every instance's last `mcp/state` event: its state and live child pid. */
  status: ConnectionStatus
  /** warn and error lines the plugin logged (cordis prints nothing without an exporter). */
  logs: string[]
  dispose(): Promise<void>
}

export async function startHost(): Promise<Host> {
  const ctx = new Context()
  const logs: string[] = []
  attachConsoleLogger(ctx, { level: 'warn', write: (line) => logs.push(line) })
  await ctx.plugin(ConnectionStatus)
  const registry = ctx.plugin(ToolRegistry)
  await registry
  return { ctx, tools: ctx.tools as ToolRegistry, status: ctx.get('mcpStatus') as ConnectionStatus, logs, dispose: async () => void (await registry.dispose()) }
}

export type ServerTarget = { transport: 'stdio'; command: string; args: string[] } | { transport: 'http'; url: string }

/** The plugin's config for a target (plus overrides such as listChanged). */
export function bridgeConfig(serverName: string, target: ServerTarget, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return target.transport === 'stdio'
    ? { serverName, transport: 'stdio', command: target.command, args: target.args, ...extra }
    : { serverName, transport: 'streamable-http', url: target.url, ...extra }
}

/** Starts one plugin instance; the returned fiber is awaited by the caller (so several can start together). */
export function loadBridge(host: Host, config: Record<string, unknown>): Fiber {
  return host.ctx.plugin(bridge, config as never)
}

/** A raw SDK client with the SDK's own transport for the target, connected (initialize done). */
export async function connectRaw(target: ServerTarget, name = 'bench-raw'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} })
  const transport =
    target.transport === 'stdio'
      ? new StdioClientTransport({ command: target.command, args: target.args, stderr: 'ignore' })
      : new StreamableHTTPClientTransport(new URL(target.url))
  await client.connect(transport)
  return client
}

/**
 * The same with the SDK's v2 client (`@modelcontextprotocol/client`), the one the plugin is built
 * on and the only one that speaks the 2026-07-28 revision: the per-call and discovery baseline.
 */
export async function connectRawV2(target: ServerTarget, name = 'bench-raw-v2'): Promise<ClientV2> {
  const client = new ClientV2({ name, version: '1.0.0' }, { capabilities: {} })
  const transport =
    target.transport === 'stdio'
      ? new StdioClientTransportV2({ command: target.command, args: target.args, stderr: 'ignore' })
      : new StreamableHTTPClientTransportV2(new URL(target.url))
  await client.connect(transport)
  return client
}

/** Follows tools/list pagination to the end with the SDK's listTools (bounded page count). */
export async function listAllRaw(client: Client | ClientV2, maxPages = 10_000): Promise<unknown[]> {
  const tools: unknown[] = []
  let cursor: string | undefined
  for (let page = 0; page < maxPages; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor })
    tools.push(...result.tools)
    cursor = result.nextCursor
    if (!cursor) return tools
  }
  throw new Error(`tools/list did not end within ${maxPages} pages`)
}

/** Closes a raw client, bounded: a stuck close must not hang the run. */
export async function closeRaw(client: Client | ClientV2): Promise<void> {
  await Promise.race([client.close().catch(() => {}), sleep(5_000)])
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Resolves once `check()` is true, re-checking whenever `subscribe` reports a change and at least
 * every `pollMs`; rejects after `timeoutMs` with `what` in the message.
 */
export function waitUntil(
  check: () => boolean,
  options: { timeoutMs: number; what: string; subscribe?: (onChange: () => void) => () => void; pollMs?: number },
): Promise<void> {
  if (check()) return Promise.resolve()
  return new Promise((resolve, reject) => {
    let unsubscribe = () => {}
    const finish = (error?: Error) => {
      clearTimeout(deadline)
      clearInterval(poll)
      unsubscribe()
      if (error) reject(error)
      else resolve()
    }
    const test = () => {
      if (check()) finish()
    }
    const deadline = setTimeout(() => finish(new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}`)), options.timeoutMs)
    const poll = setInterval(test, options.pollMs ?? 100)
    if (options.subscribe) unsubscribe = options.subscribe(test)
  })
}

/** Registered names of one server, from the registry's own source records. */
export function namesOf(host: Host, serverName: string): string[] {
  return host.tools
    .list()
    .filter((schema) => host.tools.get(schema.name)?.source?.serverName === serverName)
    .map((schema) => schema.name)
}

/** A full GC (twice, so finalisers and weak maps settle) when node runs with --expose-gc. */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) return false
  gc()
  gc()
  return true
}

/** True while the process exists (signal 0 probes without killing). */
export function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
