import { Client, SdkError, SdkErrorCode, SdkHttpError, SseError, type Transport } from '@modelcontextprotocol/client'
import type { Config } from './config.ts'
import { CallScope } from './abort-scope.ts'
import { askFailure } from './asks/ask-failure.ts'
import { clientAsks, type ClientAsks } from './asks/client-asks.ts'
import { declaresToolTasks, drainToolPages } from './discovery.ts'
import { isLegacyRefusal, isModernRefusal, MODERN_REVISION, probeWaitMs, type Era } from './era.ts'
import { BridgeError, errorMessage } from './errors.ts'
import type { ToolExecution } from './host-contract.ts'
import { ANY_OBJECT, errorMessageWithCause, isWorthSaying, isWriteRefusal, quoteUntrusted, RepeatCounter, safeCause, type Redact, stderrExcerpt, untilAborted, waitAtMost, withAbortScope } from '@mcp-bridge/process'
import { classifyFailure, isAuthFailure, isConnectionLoss, isCredentialRefusal, isSdkTimeout, isServerGone, UndeliveredMessageError } from './request-failure.ts'
import { checkListing, paramHeaders, type ParamHeader } from './param-headers.ts'
import { InvalidRequestError, OversizedLineError } from './stdio-transport.ts'
import { callToolAsTask } from './task-call.ts'
import { dialer, type Dialer, type TransportHandle } from './transport.ts'

/** A refused initialize POST is how a legacy-only server answers (sseFallback is off, or it would have switched). */
const LEGACY_HINT = 'if the server speaks only the older HTTP+SSE transport (MCP 2024-11-05), set sseFallback: true or transport: sse'

/** The largest delay a Node timer takes: the SDK's initialize timer, which the deadline always beats. */
const NEVER_BEFORE_THE_DEADLINE_MS = 2_147_483_647

/** After the transport's own escalation (EOF, SIGTERM, SIGKILL on the grace clock): a margin. */
const CLOSE_MARGIN_MS = 2_000
/** HTTP has no kill grace: the session's DELETE gets as long as a stdio child's default EOF grace. */
const HTTP_CLOSE_MS = 2_000
const QUOTE_MARGIN_CHARS = 500
/** serverInfo's name and version as states show them: a name and a version, not a document. */
const SERVER_INFO_MAX_CHARS = 200
/** Tools named in the one line a sync logs about those excluded for their x-mcp-header, and the characters of each name. */
const EXCLUDED_SHOWN = 10
const EXCLUDED_NAME_CHARS = 80

/** What the steps of one `Session.open` share. */
interface Opening {
  dial: Dialer
  config: Config
  hooks: SessionHooks
  deadline: AbortSignal
  redact: Redact
}

export interface SessionHooks {
  onToolListChanged(): void
  /** The transport closed on its own: a child exited or the connection was lost. */
  onLost(reason: string): void
  onStderrLine(line: string): void
  /** Something the server did that fails nothing but is worth a warning (an oversized stray line). */
  onNotice(message: string): void
  onSecretLookingEnv(names: string[]): void
  /** A notifications/message's params (features/server-log.ts); absent when server logs are not wanted. */
  onLogMessage?(params: unknown): void
  /** A resources or prompts change (features/changes.ts); absent when neither feature is configured. */
  onFeatureNotification?(method: FeatureNotification, params: unknown): void
}

/** The notifications the features beyond tools follow: list changes and resource updates. */
export const FEATURE_NOTIFICATIONS = ['notifications/resources/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/updated'] as const
export type FeatureNotification = (typeof FEATURE_NOTIFICATIONS)[number]

/**
 * One connection generation: an SDK client bound to one transport for its whole life (the SDK
 * binds a Protocol to a single transport). Reconnecting means opening a new Session. One client,
 * the SDK's v2 `Client`, speaks both eras: the legacy `initialize` handshake (MCP 2025-11-25 and
 * before, legacy SSE included) and the modern one (2026-07-28, `server/discover` and a `_meta`
 * envelope on every request); which one, `open` finds out, or is told by the era a previous
 * session learned.
 */
export class Session {
  private closing?: Promise<void>
  private lostReported = false
  /**
   * Why the legacy SSE event stream failed (an event over limits.maxResultBytes, say): the SDK
   * then only closes, and the loss, and the calls it ends, would say no more than "closed".
   */
  private streamFailure?: string
  /** How often each kind of repeated notice has come up: failed POSTs, dropped replies, invalid requests. */
  private readonly repeats = new RepeatCounter()
  private learned?: Era
  /** Ends what the attempt's transports shared (transport.ts): set on the session `open` returns. */
  private endAccess = () => {}
  /**
   * The x-mcp-header parameters of the tools last listed, by raw name (modern Streamable HTTP
   * only). The SDK client's own listTools and callTool would apply SEP-2243 too, but listTools
   * drains pages under its own cap, not limits.maxPages and maxTools, and warns of an excluded tool
   * on the console, unredacted; callTool needs that listing's cache (or compiles an output
   * validator per call) and checks results against the SDK's schemas, where the bridge judges
   * results itself (definition.ts). So the rule is param-headers.ts, on the plain requests.
   */
  private paramHeaders = new Map<string, ParamHeader[]>()

  private constructor(
    private readonly client: Client,
    private readonly handle: TransportHandle,
    private readonly config: Config,
    private readonly hooks: SessionHooks,
    private readonly redact: Redact,
    private readonly asks: ClientAsks,
  ) {}

  /**
   * Spawns or dials the server and connects, all within `connectTimeoutMs`, in the era `known`
   * names, or else in the one the server turns out to speak, found as the 2026-07-28 versioning
   * page recommends a dual-era client to: "SHOULD probe with server/discover first" (era.ts). A
   * modern or dual-era server is then spoken to at 2026-07-28; a legacy one answers the probe with
   * an error (or an HTTP 4xx) and gets the plain legacy `initialize` on the same connection. Over
   * stdio a silent server is a legacy one once `probeWaitMs` (era.ts) has passed; one that exits on
   * the probe fails the attempt, and the next one speaks legacy (eraAfterFailure); one that turns
   * out modern only when it refuses that `initialize` (it was slow to start) gets 2026-07-28 on a
   * fresh child. Legacy SSE
   * is of the legacy era (2024-11-05) and is not probed.
   */
  static async open(config: Config, hooks: SessionHooks, deadline: AbortSignal, redact: Redact, known?: Era): Promise<Session> {
    const dial = await dialer(config, { onStderrLine: hooks.onStderrLine, onSecretLookingEnv: hooks.onSecretLookingEnv, redact })
    const opening: Opening = { dial, config, hooks, deadline, redact }
    try {
      const session = await Session.inEra(opening, known)
      session.endAccess = dial.end
      return session
    } catch (error) {
      dial.end()
      throw error
    }
  }

  private static async inEra(opening: Opening, known: Era | undefined): Promise<Session> {
    if (known?.kind === 'modern') return Session.connect(opening, known)
    const how = known ?? (opening.config.transport === 'sse' ? { kind: 'legacy' } : 'probe')
    try {
      return await Session.connect(opening, how)
    } catch (error) {
      // A legacy initialize refused as a modern server refuses it (era.ts): 2026-07-28, fresh transport.
      if (error instanceof ModernRefusal) return Session.connect(opening, 'pin')
      throw error
    }
  }

  /**
   * Connects on a fresh transport: probing (`probe`: server/discover first, the legacy handshake
   * on any legacy answer), at exactly 2026-07-28 (`pin`: server/discover, accepting nothing else),
   * or in the era a previous session learned (legacy: the initialize handshake; modern: its
   * DiscoverResult adopted, no round trip). The deadline bounds the whole
   * handshake, not only its first request: the SDK awaits the write of notifications/initialized
   * with no timeout, and a server that dies right after answering would hold that write (and this
   * attempt) forever. It ends the attempt by closing the transport, never through the SDK's
   * signal or timeout: those send notifications/cancelled, and "The initialize request MUST NOT
   * be cancelled by clients" (MCP 2025-11-25 §basic/utilities/cancellation). The SDK's timer is
   * set past any deadline (closing clears it) so that its 60 s default cannot end a longer
   * connectTimeoutMs first.
   */
  private static async connect({ dial, config, hooks, deadline, redact }: Opening, how: Era | 'probe' | 'pin'): Promise<Session> {
    const prior = typeof how === 'string' ? undefined : how
    // Elicitation and roots, declared exactly as offered (asks/client-asks.ts).
    const asks = clientAsks(config, redact, (message) => hooks.onNotice(message))
    const client = new Client(
      { name: 'mcp-bridge', version: '0.1.0' },
      {
        capabilities: asks.capabilities,
        ...(how === 'probe' ? { versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeWaitMs(config) } } } : {}),
        // Pinned: a server that refused initialize as a modern one said it speaks this revision.
        ...(how === 'pin' ? { versionNegotiation: { mode: { pin: MODERN_REVISION } } } : {}),
        // An `input_required` result (the modern era's way to ask for elicitation, sampling or
        // roots) is fulfilled through the handlers `asks` registers, and only when it offers one:
        // otherwise the call ends at once (INPUT_REQUIRED).
        inputRequired: { autoFulfill: asks.offered },
        // Modern: the subscription the client opens when the server declares list changes.
        listChanged: {
          tools: { onChanged: () => hooks.onToolListChanged(), autoRefresh: false, debounceMs: 0 },
          ...(hooks.onFeatureNotification && {
            resources: { onChanged: () => hooks.onFeatureNotification?.('notifications/resources/list_changed', {}), autoRefresh: false, debounceMs: 0 },
            prompts: { onChanged: () => hooks.onFeatureNotification?.('notifications/prompts/list_changed', {}), autoRefresh: false, debounceMs: 0 },
          }),
        },
      },
    )
    // Legacy: registered before connect so a list_changed that races the first sync is queued, not
    // lost; a modern connection replaces it with the subscription's (listChanged above).
    client.setNotificationHandler('notifications/tools/list_changed', () => hooks.onToolListChanged())
    // Before connect too: a server may log the moment it is initialized.
    if (hooks.onLogMessage) client.setNotificationHandler('notifications/message', (notification) => hooks.onLogMessage?.(notification.params))
    for (const method of hooks.onFeatureNotification ? FEATURE_NOTIFICATIONS : []) client.setNotificationHandler(method, (notification) => hooks.onFeatureNotification?.(method, notification.params))
    const handle = dial.open()
    asks.register(client)
    const session = new Session(client, handle, config, hooks, redact, asks)
    session.watch(client)
    try {
      await untilAborted(
        client.connect(handle.transport as Transport, { timeout: NEVER_BEFORE_THE_DEADLINE_MS, ...(prior ? { prior } : {}) }),
        deadline,
        () => deadlineError(deadline, `no complete handshake within connectTimeoutMs (${config.connectTimeoutMs} ms)`),
      )
    } catch (error) {
      // A server that exits at once fails the handshake as a broken pipe or a closed connection,
      // whichever the scheduler shows first: either way what happened is that it exited.
      const exit = isConnectionLoss(error) || isProbeRefused(error) || isWriteRefusal(error) ? handle.exitReason?.() : undefined
      await session.close()
      const legacy = how === 'probe' || prior?.kind === 'legacy'
      if (legacy && !exit && !deadline.aborted && isModernRefusal(error)) throw new ModernRefusal()
      const legacyHint = legacy && config.transport === 'streamable-http' && isLegacyRefusal(error) ? LEGACY_HINT : undefined
      const reached = isProbeRefused(error) && error.cause instanceof Error ? error.cause : error
      const failure = session.explain(exit ? new Error(exit) : reached, session.failedStep(client, how, error), legacyHint, true)
      // A stdio child that exited on the probe (or crashed at start: the two look alike) is a
      // failed attempt like any exit; the next attempt speaks legacy without probing.
      if (how === 'probe' && !deadline.aborted && config.transport === 'stdio' && (isProbeRefused(error) || exit)) exitedOnProbe.add(failure)
      throw failure
    }
    session.learned = session.learnedEra(client)
    return session
  }

  /** Which step of the handshake failed, for the error: the probe, 2026-07-28's, or initialize. */
  private failedStep(client: Client, how: Era | 'probe' | 'pin', error: unknown): string {
    if (how === 'pin' || (typeof how !== 'string' && how.kind === 'modern') || client.getProtocolEra() === 'modern') return `connecting at ${MODERN_REVISION} failed`
    return how === 'probe' && isProbeVerdict(error) ? 'server/discover failed' : 'initialize failed'
  }

  /** The era the client negotiated, once it has. */
  private learnedEra(client: Client): Era | undefined {
    const era = client.getProtocolEra()
    if (era === undefined) return undefined
    return era === 'modern' ? { kind: 'modern', discover: client.getDiscoverResult()! } : { kind: 'legacy' }
  }

  /** The era this session speaks: for the next session to the same server to reuse. */
  get era(): Era | undefined {
    return this.learned
  }

  /** What the SDK client tells of its transport: a close, and errors that end or concern no request. */
  private watch(client: Client): void {
    client.onclose = () => this.reportLost(this.streamFailure ?? 'the connection closed')
    // Over HTTP the SDK reports a dead server only here (its SSE streams fail to reconnect); the
    // requests in flight would otherwise wait for their timeouts. Stray stdout lines are not fatal.
    client.onerror = (error) => {
      if (error instanceof UndeliveredMessageError) this.undelivered(error)
      else if (isServerGone(error)) this.reportLost(this.quote(errorMessage(error)))
      // Told before the close it causes (http-transport.ts, LegacySseTransport).
      else if (error instanceof SseError) this.streamFailure ??= `the event stream failed: ${this.quote(errorMessage(error))}`
      else if (error instanceof OversizedLineError) this.hooks.onNotice(error.message)
      // A server request answered -32600 (stdio-transport.ts).
      else if (error instanceof InvalidRequestError) this.noticeRepeated('invalid request', error.message, 'requests')
    }
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

  /**
   * Drains tools/list under the given deadline. Over Streamable HTTP at 2026-07-28, tools whose
   * x-mcp-header annotations are invalid are taken out (param-headers.ts), said in one line.
   */
  async listTools(deadline: AbortSignal): Promise<unknown[]> {
    const listed = await this.drainTools(deadline)
    return this.mirrorsParams ? this.checkParamHeaders(listed) : listed
  }

  /**
   * "Clients using other transports (e.g., stdio) MAY ignore `x-mcp-header` annotations entirely"
   * (2026-07-28 basic/transports/streamable-http, Schema Extension): over stdio there are no
   * headers to mirror, and no tool is excluded for them.
   */
  private get mirrorsParams(): boolean {
    return this.learned?.kind === 'modern' && this.config.transport === 'streamable-http'
  }

  /** "Clients SHOULD log a warning when rejecting a tool definition, including the tool name and the reason". */
  private checkParamHeaders(listed: unknown[]): unknown[] {
    const { tools, excluded, headers } = checkListing(listed)
    this.paramHeaders = headers
    if (excluded.length > 0) {
      const named = excluded.slice(0, EXCLUDED_SHOWN).map(({ name, reason }) => `"${quoteUntrusted(name, EXCLUDED_NAME_CHARS, this.redact)}": ${this.redact(reason)}`)
      const more = excluded.length > EXCLUDED_SHOWN ? `; and ${excluded.length - EXCLUDED_SHOWN} more` : ''
      this.hooks.onNotice(`${excluded.length} tool(s) not registered: their x-mcp-header is invalid, and a Streamable HTTP client at ${MODERN_REVISION} MUST exclude such tools: ${named.join('; ')}${more}`)
    }
    return tools
  }

  private async drainTools(deadline: AbortSignal): Promise<unknown[]> {
    try {
      return await untilAborted(
        drainToolPages(
          (cursor) =>
            withAbortScope([deadline], (signal) =>
              this.client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ANY_OBJECT, {
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

  /** What the server declared at initialize (or discovery), for the features beyond tools to check. */
  get capabilities(): Record<string, unknown> {
    return (this.client.getServerCapabilities() as Record<string, unknown> | undefined) ?? {}
  }

  /** The server's `instructions`, as it sent them: untrusted (features/instructions.ts bounds and redacts them). */
  get instructions(): string | undefined {
    return this.client.getInstructions()
  }

  /**
   * A 2026-07-28 `subscriptions/listen` for resource updates (features/subscriptions.ts); its
   * notifications reach onFeatureNotification as a legacy server's do. Resolves once acknowledged.
   */
  async listenForUpdates(uris: string[], signal: AbortSignal): Promise<{ close(): Promise<void>; closed: Promise<string> }> {
    return this.featureRequest('subscriptions/listen', signal, (options) => this.client.listen({ resourceSubscriptions: uris }, options))
  }

  /** One request of a feature beyond tools (features/), under toolCallTimeoutMs and the caller's signal. */
  request(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    return this.featureRequest(method, signal, (options) => this.client.request({ method, params } as never, ANY_OBJECT, options))
  }

  /** Its failures are told apart as a call's are, `method` standing for the tool's name. */
  private async featureRequest<T>(method: string, signal: AbortSignal, send: (options: { signal: AbortSignal; timeout: number }) => Promise<T>): Promise<T> {
    try {
      return await send({ signal, timeout: this.config.toolCallTimeoutMs })
    } catch (error) {
      if (signal.aborted) throw new BridgeError(`${method} was aborted`, 'ABORTED', { cause: safeCause(error, this.redact) })
      throw this.callFailure(error, method)
    }
  }

  /**
   * The server declared task-augmented tools/call (MCP 2025-11-25 capabilities.tasks.requests.tools.call).
   * Only a legacy session: 2026-07-28 moved tasks into an extension the bridge does not speak.
   */
  get supportsToolTasks(): boolean {
    return this.learned?.kind === 'legacy' && declaresToolTasks(this.client.getServerCapabilities())
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
    // SEP-2243: the x-mcp-header parameters mirrored into Mcp-Param-* headers (param-headers.ts).
    const mirrored = this.paramHeaders.get(rawName)
    try {
      return await this.client.request({ method: 'tools/call', params: { name: rawName, arguments: args } }, ANY_OBJECT, {
        signal: scope.signal,
        timeout: toolCallTimeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: scope.onProgress,
        ...(mirrored && { headers: paramHeaders(mirrored, args) }),
      })
    } catch (error) {
      if (exec.signal.aborted) throw new BridgeError(`call to ${rawName} was aborted`, 'ABORTED', { cause: safeCause(error, this.redact) })
      if (scope.ceilingReached) {
        throw new BridgeError(`${rawName} exceeded maxTotalTimeoutMs (${maxTotalTimeoutMs} ms) despite progress; the server was sent notifications/cancelled`, 'TOOL_TIMEOUT', {
          cause: safeCause(error, this.redact),
        })
      }
      throw this.callFailure(error, rawName)
    } finally {
      scope.release()
    }
  }

  /** What a failed call (plain or as a task) is, once abort and the call's own ceiling are told apart. */
  private callFailure(error: unknown, rawName: string): BridgeError {
    const cause = safeCause(error, this.redact)
    if (isInputRequired(error)) return new BridgeError(`${rawName} failed: ${INPUT_REQUIRED}; the call was not retried`, 'TOOL_ERROR', { cause })
    const ask = askFailure(error, this.redact)
    if (ask) return new BridgeError(`${rawName} failed: ${ask}`, 'TOOL_ERROR', { cause })
    switch (classifyFailure(error)) {
      case 'auth':
        return new BridgeError(`${rawName} was refused by the server (HTTP ${(error as { status: number }).status}): check the configured headers or auth`, 'UNAUTHORIZED', { cause })
      case 'credentials':
        return this.explain(error, `${rawName} failed: no accepted credentials`)
      case 'refused-answer':
        return new BridgeError(`${rawName} failed: ${this.quote(errorMessage(error))}`, 'INVALID_RESULT', { cause })
      case 'timeout':
        return new BridgeError(`${rawName} did not answer within ${(error as { data: { timeout: number } }).data.timeout} ms; the server was sent notifications/cancelled`, 'TOOL_TIMEOUT', { cause })
      case 'lost':
        this.reportLost(this.quote(errorMessage(error)))
        return this.explain(error, `${rawName} failed and was not replayed; the connection was lost${this.streamFailure ? ` (${this.streamFailure})` : ''} and is being re-established`)
      case 'server-answer': {
        // The server answered with a JSON-RPC error: the call failed on its side, the session is fine.
        const { code } = error as { code: number }
        return new BridgeError(`${rawName} failed on the server (JSON-RPC error ${code}): ${this.quote(errorMessage(error))}`, 'TOOL_ERROR', { cause })
      }
      default:
        return this.explain(error, `${rawName} failed`)
    }
  }

  /** A tools/call as a task (task-call.ts); its errors are told apart like a plain call's. */
  private async callTask(rawName: string, args: Record<string, unknown>, exec: ToolExecution): Promise<unknown> {
    const { toolCallTimeoutMs, maxTotalTimeoutMs } = this.config
    try {
      return await callToolAsTask(this.client, rawName, args, { signal: exec.signal, toolCallTimeoutMs, maxTotalTimeoutMs })
    } catch (error) {
      // task-call.ts has already named an abort and the ceiling; a request's own timeout is
      // told apart here, like a plain call's (tasks/result may wait up to maxTotalTimeoutMs).
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
    this.asks.close()
    const grace = this.config.transport === 'stdio' ? this.config.killGraceMs : HTTP_CLOSE_MS
    await waitAtMost(this.handle.terminate(), grace)
    // The stdio transport escalates on the grace clock twice (EOF, then SIGTERM) before SIGKILL.
    // The transport is closed too: during the era probe the client does not hold it yet.
    await waitAtMost(Promise.all([this.client.close(), this.handle.transport.close()]), 2 * grace + CLOSE_MARGIN_MS)
    this.endAccess()
  }

  /**
   * A reply or notification of ours that did not reach the server (response-limits.ts): one POST
   * failed, which a request of ours would show if the server were gone, or the queue of replies
   * was full. The session stays; the log says so at the 1st, 10th, 100th, … failure, and at the
   * first drop.
   */
  private undelivered(error: UndeliveredMessageError): void {
    if (this.closing) return
    if (error.dropped) {
      if (this.repeats.count('dropped') === 1) this.hooks.onNotice(`${this.quote(error.message)}; the server sends requests faster than they can be answered: later replies that find the queue full are dropped too (counted, not logged)`)
      return
    }
    this.noticeRepeated('failed post', error.message, 'failures', '; the session is kept: a failed reply is not a lost server')
  }

  /** Logs `message` the 1st, 10th, 100th, … time its kind comes up, with the count so far. */
  private noticeRepeated(kind: string, message: string, what: string, suffix = ''): void {
    const count = this.repeats.count(kind)
    if (isWorthSaying(count)) this.hooks.onNotice(`${this.quote(message)}${count === 1 ? '' : ` (${count} such ${what} so far)`}${suffix}`)
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
      : isSdkTimeout(error) || error instanceof ConnectTimeout
        ? 'CONNECT_TIMEOUT'
        : 'SERVER_UNAVAILABLE'
    const status = error instanceof SdkHttpError && error.status > 0 ? ` (HTTP ${error.status})` : ''
    const message = withCause ? errorMessageWithCause(error) : errorMessage(error)
    return new BridgeError(`${what}${status}: ${this.quote(message)}${quoted}${fix ? `; ${fix}` : ''}`, code, { cause: safeCause(error, this.redact) })
  }
}

/** Why a deadline ended a step: its time ran out (a request timeout), or whatever else aborted it. */
function deadlineError(deadline: AbortSignal, timedOut: string): unknown {
  const reason: unknown = deadline.reason
  const isTimeout = reason instanceof Error && reason.name === 'TimeoutError'
  return isTimeout || reason === undefined ? new ConnectTimeout(timedOut) : reason
}

/** A step that did not complete within connectTimeoutMs. */
class ConnectTimeout extends Error {}

/** The legacy handshake was refused as a modern server refuses it: the caller moves to 2026-07-28. */
class ModernRefusal extends Error {}

/** The SDK's verdict on the probe itself (a refusal of it, or no usable answer), not on initialize. */
function isProbeVerdict(error: unknown): boolean {
  const codes: unknown[] = [SdkErrorCode.EraNegotiationFailed, SdkErrorCode.ClientHttpAuthentication, SdkErrorCode.ClientHttpForbidden]
  return error instanceof SdkError && codes.includes(error.code)
}

/** Failed attempts whose stdio server closed the connection on the probe: a legacy one, most likely. */
const exitedOnProbe = new WeakSet<object>()

/** The era the next attempt should speak after `error` ended one: legacy after a child exited on the probe. */
export function eraAfterFailure(error: unknown): Era | undefined {
  return typeof error === 'object' && error !== null && exitedOnProbe.has(error) ? { kind: 'legacy' } : undefined
}

/** The SDK's verdict on a probe that got no usable answer: the connection closed, or the reply made no sense. */
function isProbeRefused(error: unknown): error is SdkError {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed
}

const INPUT_REQUIRED = 'the server asked for input (an input_required result), which the bridge cannot give: it declares no elicitation, sampling or roots capability'

/** A modern server answered with an `input_required` result, which the client was told not to fulfil. */
function isInputRequired(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.UnsupportedResultType && (error.data as { resultType?: unknown } | undefined)?.resultType === 'input_required'
}
