import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import type { Config } from './config.ts'
import { CallScope, withAbortScope } from './abort-scope.ts'
import { declaresToolTasks, drainToolPages } from './discovery.ts'
import { BridgeError, errorMessage, errorMessageWithCause, safeCause } from './errors.ts'
import type { ToolExecution } from './host/types.ts'
import { quoteUntrusted, type Redact } from './redact.ts'
import { MALFORMED_MARK } from './json-rpc-message.ts'
import { OVERSIZED_MARK } from './response-limits.ts'
import { stderrExcerpt } from './stderr-tail.ts'
import { OversizedLineError } from './stdio-transport.ts'
import { callToolAsTask } from './task-call.ts'
import { isLegacyRefusal } from './http-transport.ts'
import { createTransport, type TransportHandle } from './transport.ts'
import { untilAborted, waitAtMost } from './wait.ts'

/** A refused initialize POST is how a legacy-only server answers (sseFallback is off, or it would have switched). */
const LEGACY_HINT = 'if the server speaks only the older HTTP+SSE transport (MCP 2024-11-05), set sseFallback: true or transport: sse'

/** The largest delay a Node timer takes: the SDK's initialize timer, which the deadline always beats. */
const NEVER_BEFORE_THE_DEADLINE_MS = 2_147_483_647

/** Results are validated by the bridge itself, so the SDK only checks they are objects. */
const AnyObject = z.object({}).passthrough()
/** After the transport's own escalation (EOF, SIGTERM, SIGKILL on the grace clock): a margin. */
const CLOSE_MARGIN_MS = 2_000
/** HTTP has no kill grace: the session's DELETE gets as long as a stdio child's default EOF grace. */
const HTTP_CLOSE_MS = 2_000
const QUOTE_MARGIN_CHARS = 500
/** serverInfo's name and version as states show them: a name and a version, not a document. */
const SERVER_INFO_MAX_CHARS = 200

export interface SessionHooks {
  onToolListChanged(): void
  /** The transport closed on its own: a child exited or the connection was lost. */
  onLost(reason: string): void
  onStderrLine(line: string): void
  /** Something the server did that fails nothing but is worth a warning (an oversized stray line). */
  onNotice(message: string): void
  onSecretLookingEnv(names: string[]): void
}

/**
 * One connection generation: a Client bound to one transport for its whole life (the SDK binds a
 * Protocol to a single transport). Reconnecting means opening a new Session.
 */
export class Session {
  private closing?: Promise<void>
  private lostReported = false
  /** Set when the transport closed: only then is a -32000 "Connection closed" the SDK's own verdict. */
  private transportClosed = false

  private constructor(
    private readonly client: Client,
    private readonly handle: TransportHandle,
    private readonly config: Config,
    private readonly hooks: SessionHooks,
    private readonly redact: Redact,
  ) {}

  /** Spawns or dials the server and initializes, all within `connectTimeoutMs`. */
  static async open(config: Config, hooks: SessionHooks, deadline: AbortSignal, redact: Redact): Promise<Session> {
    const client = new Client({ name: 'mcp-bridge', version: '0.1.0' }, { capabilities: {} })
    const handle = createTransport(config, { onStderrLine: hooks.onStderrLine, onSecretLookingEnv: hooks.onSecretLookingEnv, redact })
    const session = new Session(client, handle, config, hooks, redact)
    // Registered before connect so a list_changed that races the first sync is queued, not lost.
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => hooks.onToolListChanged())
    client.onclose = () => {
      session.transportClosed = true
      session.reportLost('the connection closed')
    }
    // Over HTTP the SDK reports a dead server only here (its SSE streams fail to reconnect); the
    // requests in flight would otherwise wait for their timeouts. Stray stdout lines are not fatal.
    client.onerror = (error) => {
      if (isServerGone(error)) session.reportLost(session.quote(errorMessage(error)))
      else if (error instanceof OversizedLineError) hooks.onNotice(error.message)
    }
    try {
      // The deadline bounds the whole handshake, not only the initialize request: the SDK awaits
      // the write of notifications/initialized with no timeout, and a server that dies right
      // after answering would hold that write (and this attempt) forever. It ends the attempt by
      // closing the transport, never through the SDK's signal or timeout: those send
      // notifications/cancelled, and "The initialize request MUST NOT be cancelled by clients"
      // (MCP 2025-11-25 §basic/utilities/cancellation). The SDK's timer is set past any deadline
      // (closing clears it) so that its 60 s default cannot end a longer connectTimeoutMs first.
      await untilAborted(
        client.connect(handle.transport, { timeout: NEVER_BEFORE_THE_DEADLINE_MS }),
        deadline,
        () => deadlineError(deadline, `no complete handshake within connectTimeoutMs (${config.connectTimeoutMs} ms)`),
      )
    } catch (error) {
      await session.close()
      throw session.explain(error, 'initialize failed', config.transport === 'streamable-http' && isLegacyRefusal(error) ? LEGACY_HINT : undefined, true)
    }
    return session
  }

  /** The stdio child's pid; undefined over HTTP. */
  get pid(): number | undefined {
    return this.handle.pid
  }

  /** What the server says it is, for states and logs: its own words, so redacted and bounded. */
  get serverVersion(): string {
    const info = this.client.getServerVersion()
    return info ? quoteUntrusted(`${info.name} ${info.version}`, SERVER_INFO_MAX_CHARS, this.redact) : 'unknown server'
  }

  /** Drains tools/list under the given deadline. */
  async listTools(deadline: AbortSignal): Promise<unknown[]> {
    try {
      return await untilAborted(
        drainToolPages(
          (cursor) =>
            withAbortScope([deadline], (signal) =>
              this.client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, AnyObject, {
                signal,
                timeout: this.config.connectTimeoutMs,
              }),
            ) as Promise<{ tools: unknown[]; nextCursor?: unknown }>,
          this.config.limits,
        ),
        deadline,
        () => deadlineError(deadline, `tools/list did not complete within connectTimeoutMs (${this.config.connectTimeoutMs} ms)`),
      )
    } catch (error) {
      throw BridgeError.is(error) ? error : this.explain(error, 'tools/list failed', undefined, true)
    }
  }

  /** The server declared the tools capability: without it, tools/list is not for this client to send. */
  get declaresTools(): boolean {
    return this.client.getServerCapabilities()?.tools !== undefined
  }

  /** The server declared task-augmented tools/call (MCP 2025-11-25 capabilities.tasks.requests.tools.call). */
  get supportsToolTasks(): boolean {
    return declaresToolTasks(this.client.getServerCapabilities())
  }

  /**
   * One tools/call with the raw name. The SDK sends notifications/cancelled itself on abort and on
   * timeout; progress notifications push the timeout back, up to maxTotalTimeoutMs.
   */
  async callTool(rawName: string, args: Record<string, unknown>, exec: ToolExecution, asTask = false): Promise<unknown> {
    if (asTask) return this.callTask(rawName, args, exec)
    const { toolCallTimeoutMs, maxTotalTimeoutMs } = this.config
    // The SDK checks its maxTotalTimeout only when progress arrives and then sends no cancellation,
    // so the ceiling is an abort of our own: the SDK turns it into notifications/cancelled.
    const scope = new CallScope(exec.signal, maxTotalTimeoutMs, `exceeded maxTotalTimeoutMs (${maxTotalTimeoutMs} ms)`)
    try {
      return await this.client.request({ method: 'tools/call', params: { name: rawName, arguments: args } }, AnyObject, {
        signal: scope.signal,
        timeout: toolCallTimeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: scope.onProgress,
      })
    } catch (error) {
      if (exec.signal.aborted) throw new BridgeError(`call to ${rawName} was aborted`, 'ABORTED', { cause: safeCause(error, this.redact) })
      if (scope.ceilingReached) {
        throw new BridgeError(`${rawName} exceeded maxTotalTimeoutMs (${maxTotalTimeoutMs} ms) despite progress; the server was sent notifications/cancelled`, 'TOOL_TIMEOUT', {
          cause: safeCause(error, this.redact),
        })
      }
      // The SDK's own timeout carries { timeout } as its data (the value it was given); a -32001
      // without it is the server's answer. (Not told apart by the time elapsed: a timer armed
      // while the event loop's clock was stale fires early by that much, under load.)
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        if (!isSdkTimeout(error, toolCallTimeoutMs)) throw this.serverFailure(error, rawName)
        throw new BridgeError(`${rawName} did not answer within ${toolCallTimeoutMs} ms; the server was sent notifications/cancelled`, 'TOOL_TIMEOUT', {
          cause: safeCause(error, this.redact),
        })
      }
      throw this.callFailure(error, rawName)
    } finally {
      scope.release()
    }
  }

  /** What a failed call (plain or as a task) is, once abort and the call's own timeouts are told apart. */
  private callFailure(error: unknown, rawName: string): BridgeError {
    if (isAuthFailure(error)) {
      return new BridgeError(`${rawName} was refused by the server (HTTP ${error.code}): check the configured headers or auth`, 'UNAUTHORIZED', {
        cause: safeCause(error, this.redact),
      })
    }
    if (isCredentialRefusal(error)) return this.explain(error, `${rawName} failed: no accepted credentials`)
    if (isRefusedAnswer(error)) return new BridgeError(`${rawName} failed: ${this.quote(errorMessage(error))}`, 'INVALID_RESULT', { cause: safeCause(error, this.redact) })
    if (isConnectionLoss(error) && !this.answeredWithClosedCode(error)) {
      this.reportLost(this.quote(errorMessage(error)))
      return this.explain(error, `${rawName} failed and was not replayed; the connection was lost and is being re-established`)
    }
    // The server answered, with a JSON-RPC error: the call failed on its side, the session is fine.
    if (isServerAnswer(error) || this.answeredWithClosedCode(error)) return this.serverFailure(error, rawName)
    return this.explain(error, `${rawName} failed`)
  }

  private serverFailure(error: McpError, rawName: string): BridgeError {
    return new BridgeError(`${rawName} failed on the server (JSON-RPC error ${error.code}): ${this.quote(errorMessage(error))}`, 'TOOL_ERROR', { cause: safeCause(error, this.redact) })
  }

  /**
   * -32000 is the SDK's "Connection closed" and also the first code of JSON-RPC's "server error"
   * range, which servers use for their own failures. The SDK's comes only once the transport has
   * closed; while it is open, the code came in a response.
   */
  private answeredWithClosedCode(error: unknown): error is McpError {
    return error instanceof McpError && error.code === ErrorCode.ConnectionClosed && !this.transportClosed
  }

  /** A tools/call as a task (task-call.ts); its errors are told apart like a plain call's. */
  private async callTask(rawName: string, args: Record<string, unknown>, exec: ToolExecution): Promise<unknown> {
    const { toolCallTimeoutMs, maxTotalTimeoutMs } = this.config
    try {
      return await callToolAsTask(this.client, rawName, args, { signal: exec.signal, toolCallTimeoutMs, maxTotalTimeoutMs })
    } catch (error) {
      // task-call.ts has already named an abort, the ceiling and a request timeout.
      throw BridgeError.is(error) ? error : this.callFailure(error, rawName)
    }
  }

  /**
   * Ends the session: HTTP DELETE where there is a session, then the transport (stdio: EOF,
   * SIGTERM, SIGKILL). Each step is bounded by killGraceMs, the time configured for a polite end.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown()
    return this.closing
  }

  private async shutdown(): Promise<void> {
    const grace = this.config.transport === 'stdio' ? this.config.killGraceMs : HTTP_CLOSE_MS
    await waitAtMost(this.handle.terminate(), grace)
    // The stdio transport escalates on the grace clock twice (EOF, then SIGTERM) before SIGKILL.
    await waitAtMost(this.client.close(), 2 * grace + CLOSE_MARGIN_MS)
  }

  private reportLost(reason: string): void {
    if (this.closing || this.lostReported) return
    this.lostReported = true
    const tail = this.handle.stderrTail()
    this.hooks.onLost(tail.length ? `${reason}; last stderr lines: ${stderrExcerpt(tail).join(' | ')}` : reason)
  }

  /**
   * Server-supplied text (an error that embeds a body, say), redacted and bounded for quoting. An
   * HTTP error body arrives already cut to maxResultTextChars (response-limits.ts): the margin is
   * for the SDK's own words around it, so that the body's notice survives.
   */
  quote(text: string): string {
    return quoteUntrusted(text, this.config.limits.maxResultTextChars + QUOTE_MARGIN_CHARS, this.redact)
  }

  /**
   * Wraps an SDK error, quoting the child's last stderr lines when it has any. The SDK's text may
   * embed what the server sent, so it is redacted and bounded like any server output; errors the
   * bridge raised itself (a configuration error, an oversized answer) pass through. `withCause`:
   * for a connection that could not be made, the network reason too (errors.ts).
   */
  private explain(error: unknown, what: string, fix?: string, withCause = false): BridgeError {
    if (BridgeError.is(error)) return error
    const tail = this.handle.stderrTail()
    const quoted = tail.length ? ` (server stderr: ${stderrExcerpt(tail).join(' | ')})` : ''
    const code = isAuthFailure(error) || isCredentialRefusal(error)
      ? 'UNAUTHORIZED'
      : error instanceof McpError && error.code === ErrorCode.RequestTimeout
        ? 'CONNECT_TIMEOUT'
        : 'SERVER_UNAVAILABLE'
    const status = error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0 ? ` (HTTP ${error.code})` : ''
    const message = withCause ? errorMessageWithCause(error) : errorMessage(error)
    return new BridgeError(`${what}${status}: ${this.quote(message)}${quoted}${fix ? `; ${fix}` : ''}`, code, { cause: safeCause(error, this.redact) })
  }
}

/** Why a deadline ended a step: its time ran out (a request timeout), or whatever else aborted it. */
function deadlineError(deadline: AbortSignal, timedOut: string): unknown {
  const reason: unknown = deadline.reason
  const isTimeout = reason instanceof Error && reason.name === 'TimeoutError'
  return isTimeout || reason === undefined ? new McpError(ErrorCode.RequestTimeout, timedOut) : reason
}

/** The server refused our credentials; a new session would be refused the same way. */
export function isAuthFailure(error: unknown): error is StreamableHTTPError & { code: 401 | 403 } {
  return error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)
}

/** The authorization server refused the grant, or the server refused a fresh token: retrying the same way cannot help. */
export function isCredentialRefusal(error: unknown): boolean {
  return error instanceof OAuthError || error instanceof UnauthorizedError
}

/**
 * The request failed because the bridge refused its answer: over limits.maxResultBytes (see
 * response-limits.ts), or not a JSON-RPC response at all (json-rpc-message.ts' refusedAnswer).
 */
export function isRefusedAnswer(error: unknown): boolean {
  if (BridgeError.is(error)) return error.code === 'INVALID_RESULT'
  const data = error instanceof McpError ? (error.data as Record<string, unknown> | undefined) : undefined
  return typeof data === 'object' && data !== null && (data[OVERSIZED_MARK] === true || data[MALFORMED_MARK] === true)
}

/**
 * A JSON-RPC error response from the server. The SDK raises McpError for those and for two
 * verdicts of its own, which are not the server's answer: a closed connection and a timeout.
 */
export function isServerAnswer(error: unknown): error is McpError {
  return error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout
}

/** The SDK's timeout of a request sent with `timeout: timeoutMs` (it puts `{ timeout }` in the error's data). */
export function isSdkTimeout(error: McpError, timeoutMs: number): boolean {
  const data = error.data as { timeout?: unknown } | undefined
  return typeof data === 'object' && data !== null && data.timeout === timeoutMs
}

/** Transport errors (not request errors) that mean the server can no longer be reached. */
export function isServerGone(error: unknown): boolean {
  return (error instanceof TypeError && /fetch failed/i.test(error.message)) || /Failed to reconnect SSE stream/.test(errorMessage(error))
}

/** Failures that mean the server is gone rather than that one request went wrong. */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404 || error.code === undefined
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed
  if (error instanceof TypeError) return /fetch failed|Failed to fetch|terminated/i.test(error.message)
  return /Not connected/.test(errorMessage(error))
}
