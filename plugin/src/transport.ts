import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { Config } from './config.ts'
import { childEnvironment } from './env.ts'
import { fetchWithRequestSignals } from './request-signals.ts'
import { StdioChildTransport } from './stdio-transport.ts'

export interface TransportHandle {
  transport: Transport
  /** Last stderr lines of a stdio child, for quoting in errors. */
  stderrTail(): string[]
  readonly pid?: number
  /** Ends the server side cleanly: HTTP DELETE of the session; the stdio child is stopped by close(). */
  terminate(): Promise<void>
}

export function createTransport(config: Config, onStderrLine: (line: string) => void): TransportHandle {
  if (config.transport === 'stdio') {
    const transport = new StdioChildTransport({
      command: config.command,
      args: config.args,
      env: childEnvironment(process.env, config.env),
      cwd: config.cwd || undefined,
      killGraceMs: config.killGraceMs,
      // Room for the largest result the bridge accepts, plus the JSON-RPC envelope.
      maxMessageBytes: config.limits.maxResultBytes + 1024 * 1024,
      onStderrLine,
    })
    return {
      transport,
      stderrTail: () => transport.stderr.tail(),
      terminate: async () => {},
      get pid() {
        return transport.pid
      },
    }
  }
  const transport = new StreamableHTTPClientTransport(new URL(config.url), {
    requestInit: { headers: config.headers },
    fetch: fetchWithRequestSignals(),
  })
  return {
    transport,
    stderrTail: () => [],
    terminate: async () => {
      if (transport.sessionId) await transport.terminateSession()
    },
  }
}
