import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, expect } from 'vitest'
import { z } from 'zod'
import {
  fixtureCommand,
  loadBehaviourFile,
  readWireFile,
  startHttpFixture,
  type BehaviourInput,
  type FixtureStatus,
  type HttpFixture,
  type WireEntry,
} from '../../src/index.ts'

export const KINDS = ['http', 'stdio'] as const
export type Kind = (typeof KINDS)[number]

export const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url))

// Imported at collection time, so this hook belongs to the importing test file: its temp dirs go
// when it ends (hooks run in reverse, after the file's own teardown).
const temps: string[] = []
afterAll(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true })
})

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fixture-test-'))
  temps.push(dir)
  return dir
}

export interface Opened {
  kind: Kind
  client: Client
  /** The stdio child's pid. */
  pid?: number
  /** The in-process HTTP fixture. */
  http?: HttpFixture
  /** Scripted stderr lines (stdio: the child's stderr). */
  stderr: string[]
  /** The wire log so far (stdio: read from its JSONL file). */
  wire(): WireEntry[]
  close(): Promise<void>
}

export interface OpenOptions {
  /** stdio: extra environment for the child. */
  env?: Record<string, string>
  /** http: headers on every request. */
  headers?: Record<string, string>
  stateFile?: string
  /** Skip the handshake (for fixtures that die or hang before it). */
  connect?: boolean
  timeout?: number
  /** The client's capabilities (absent: none). */
  capabilities?: ClientCapabilities
}

/** A fixture of either kind with a real SDK client, wire log on. */
export async function open(kind: Kind, source: string | BehaviourInput, options: OpenOptions = {}): Promise<Opened> {
  const client = new Client({ name: 'fixture-test', version: '1.0.0' }, options.capabilities && { capabilities: options.capabilities })
  const stderr: string[] = []
  const connectOptions: RequestOptions = { timeout: options.timeout ?? 10_000 }
  if (kind === 'http') {
    const behaviour = typeof source === 'string' ? loadBehaviourFile(source) : source
    const http = await startHttpFixture(behaviour, { memoryWire: true, stderr: (line) => stderr.push(line), stateFile: options.stateFile })
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: options.headers ?? {} } })
    if (options.connect !== false) await client.connect(transport, connectOptions)
    return {
      kind,
      client,
      http,
      stderr,
      wire: () => http.wire!.entries,
      close: async () => {
        await client.close()
        await http.close()
      },
    }
  }
  const wireFile = join(tempDir(), 'wire.jsonl')
  const { command, args } = fixtureCommand(source)
  const env = { ...options.env, MCP_FIXTURE_WIRE: wireFile, ...(options.stateFile && { MCP_FIXTURE_STATE: options.stateFile }) }
  const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' })
  transport.stderr!.on('data', (chunk: Buffer) => stderr.push(...chunk.toString().split('\n').filter(Boolean)))
  if (options.connect !== false) await client.connect(transport, connectOptions)
  return {
    kind,
    client,
    pid: transport.pid ?? undefined,
    stderr,
    wire: () => readWireFile(wireFile),
    close: async () => {
      const pid = transport.pid
      await client.close()
      if (pid) expectGone(pid)
    },
  }
}

/** Any result, unvalidated: what the fixture really sent. */
export const Loose = z.looseObject({})

export async function rawCall(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return client.request({ method: 'tools/call', params: { name, arguments: args } }, Loose)
}

export async function rawList(client: Client, cursor?: string): Promise<{ tools: Array<Record<string, unknown>>; nextCursor?: string; _meta?: Record<string, unknown> }> {
  const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, Loose)
  return result as never
}

/** The fixture's own account of itself, through its `status` block tool. */
export async function fixtureStatus(client: Client, tool = 'fixture_status'): Promise<FixtureStatus> {
  const result = await client.callTool({ name: tool, arguments: {} })
  const [block] = result.content as Array<{ type: string; text: string }>
  return JSON.parse(block!.text) as FixtureStatus
}

export function expectGone(pid: number): void {
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }))
}

export function stdioEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...getDefaultEnvironment(), ...extra }
}

/** Fixture processes this test process started and that are still alive (read from /proc). */
export function liveFixtureChildren(): number[] {
  const alive: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (ppid === process.pid && /fixtures-server\/(src\/cli\.ts|bin\/mcp-fixture\.js)/.test(cmdline)) alive.push(Number(entry))
    } catch {
      // Gone while we looked.
    }
  }
  return alive
}
