import type { Transport } from '@modelcontextprotocol/client'
import type { Config, StdioConfig } from './config.ts'
import { childEnvironment } from './env.ts'
import type { HttpAccess } from './http-transport.ts'
import type { LearningRedact, Redact } from '@mcp-bridge/process'
import { ENVELOPE_BYTES } from './json-rpc-message.ts'
import { StdioChildTransport } from './stdio-transport.ts'

export interface TransportHandle {
  transport: Transport
  /** Last stderr lines of a stdio child, for quoting in errors (redacted and bounded). */
  stderrTail(): string[]
  readonly pid?: number
  /** A stdio child that has exited: how (`the server process exited (code 3) before answering`). */
  exitReason?(): string | undefined
  /** Ends the server side cleanly: HTTP DELETE of the session; the stdio child is stopped by close(). */
  terminate(): Promise<void>
}

export interface TransportOptions {
  onStderrLine(line: string): void
  /** A learning redactor is also taught the credentials an HTTP connection obtains. */
  redact: Redact | LearningRedact
  /** Inherited variables that look like credentials (the caller warns once per name). */
  onSecretLookingEnv(names: string[]): void
}

/**
 * Opens transports to the configured server for one connection attempt, and ends what they
 * shared once the session is over (`end`: over HTTP, the access with its token; see
 * http-transport.ts). Each `open` is a fresh transport (a new child over stdio) that speaks
 * either era.
 */
export interface Dialer {
  open(): TransportHandle
  end(): void
}

export async function dialer(config: Config, options: TransportOptions): Promise<Dialer> {
  if (config.transport === 'stdio') return { open: () => stdioTransport(config, options), end: () => {} }
  const { createHttpTransport, httpAccess } = await loadHttp()
  let access: HttpAccess | undefined
  return {
    open: () => httpHandle(createHttpTransport(config, (access ??= httpAccess(config, options.redact)))),
    end: () => access?.end(),
  }
}

/**
 * HTTP, legacy SSE and OAuth are loaded for the first HTTP instance, never by a stdio-only host,
 * whose start-up they would only slow. The connection loads them before an attempt's deadline starts (`loadTransport`), so
 * loading them never eats into connectTimeoutMs.
 */
let http: Promise<typeof import('./http-transport.ts')> | undefined
const loadHttp = () => (http ??= import('./http-transport.ts'))

export async function loadTransport(config: Config): Promise<void> {
  if (config.transport !== 'stdio') await loadHttp()
}

function stdioTransport(config: StdioConfig, options: TransportOptions): TransportHandle {
  const { env, secretLooking } = childEnvironment(process.env, config.inheritEnv, config.env)
  if (secretLooking.length) options.onSecretLookingEnv(secretLooking)
  const transport = new StdioChildTransport({
    command: config.command,
    args: config.args,
    env,
    cwd: config.cwd || undefined,
    killGraceMs: config.killGraceMs,
    // Room for the largest result the bridge accepts, plus the JSON-RPC envelope.
    maxMessageBytes: config.limits.maxResultBytes + ENVELOPE_BYTES,
    // A request is rarely large; a server that left this much unread is not reading.
    maxPendingWriteBytes: config.limits.maxResultBytes + ENVELOPE_BYTES,
    onStderrLine: options.onStderrLine,
    redact: options.redact,
  })
  return {
    transport,
    stderrTail: () => transport.stderr.tail(),
    exitReason: () => transport.exitReason,
    terminate: async () => {},
    get pid() {
      return transport.pid
    },
  }
}

function httpHandle(transport: Transport): TransportHandle {
  return {
    transport,
    stderrTail: () => [],
    terminate: async () => {
      // Streamable HTTP ends its session with DELETE; a legacy SSE session ends with its stream.
      if (transport.sessionId && 'terminateSession' in transport) await (transport as { terminateSession(): Promise<void> }).terminateSession()
    },
  }
}
