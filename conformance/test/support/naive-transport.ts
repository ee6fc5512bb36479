import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { ServerTarget } from '../../src/client/adapter.ts'

/** Transport-level bugs of the naive client (auth, legacy SSE); each one switches off one thing done right. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the auth and legacy SSE faults land here
export interface TransportFaults {}

/** The naive client's transport for one connection attempt: what a plain SDK user would write. */
export function naiveTransport(target: ServerTarget, config: Record<string, unknown>, faults: TransportFaults): Transport {
  void config
  void faults
  return target.transport === 'stdio'
    ? new StdioClientTransport({ command: target.command, args: target.args, env: { ...(target.env as Record<string, string>), PATH: process.env.PATH ?? '' }, stderr: 'ignore' })
    : new StreamableHTTPClientTransport(new URL(target.url))
}
