import { type Clock, configSecrets, createLearningRedactor, Debouncer, type Redact, SchemaCompiler, Serial, startDeadline, systemClock } from '@mcp-bridge/process'
import type { Logger } from 'cordis'
import { backoffDelay } from './backoff.ts'
import type { Config } from './config.ts'
import { PlannedTool } from './definition.ts'
import { planTools } from './discovery.ts'
import { BridgeError, errorMessage } from './errors.ts'
import type { ConnectionState, ToolExecution } from './host-contract.ts'
import type { ImageServices } from './image-admission.ts'
import { redactingLog, type Log } from './log.ts'
import { authSecrets } from './auth-config.ts'
import type { Era } from './era.ts'
import { eraAfterFailure, type FeatureNotification, Session } from './session.ts'
import { filterTools, type FilteredTools } from './tool-filter.ts'
import { loadTransport } from './transport.ts'
import type { ToolSet } from './tool-set.ts'

export interface ConnectionOptions {
  config: Config
  logger: Logger
  tools: ToolSet
  clock?: Clock
  /** The optional attachment and model-capability services, looked up per call. */
  imageServices?: () => ImageServices
  /** Default: the configuration's secrets (see redact.ts) and every secret shape. */
  redact?: Redact
  /** The first failed attempt rejects activation (failOnStartupError): it is not retried. */
  noRetryOnFirstFailure?: boolean
  /** Told each new state, with the live stdio child's pid (the plugin emits it as `mcp/state`). */
  onState?: (state: ConnectionState, pid: number | undefined) => void
  /** Server log messages (notifications/message params), when the features ask for them. */
  onLogMessage?: (params: unknown) => void
  /** Resource and prompt changes (features/changes.ts), when those features are configured. */
  onFeatureNotification?: (method: FeatureNotification, params: unknown) => void
}

/**
 * Supervises one server: connects, keeps the registered generation in step with the server's
 * tool list, and reconnects with bounded backoff when the connection is lost. Sessions are
 * fenced by identity, so a stale session's events and results never win.
 */
export class ServerConnection {
  /** Settles after the first attempt; carries its error when it failed. Never rejects. */
  readonly ready: Promise<{ error?: unknown }>
  private session?: Session
  private state: ConnectionState = { kind: 'connecting' }
  private failures = 0
  private connectedAt?: number
  private timer: unknown
  private disposed = false
  private disposal?: Promise<void>
  /** The latest connection attempt (perhaps settled); it never rejects. */
  private attempting?: Promise<{ error?: unknown }>
  private readonly disposing = new AbortController()
  /** Every sync, in order. */
  private readonly syncs = new Serial()
  /** Every reconnect() and disconnect(), in order. */
  private readonly manual = new Serial()
  /** A re-sync is queued and has not started: list_changed until it starts adds nothing. */
  private resyncQueued = false
  /** The unmatched tool-filter entries last warned about, so a re-sync does not repeat them. */
  private unmatchedFilters = ''
  /** The session already told it declares no tools: said once per session, not at every re-sync. */
  private toollessSession?: Session
  private readonly listChanged: Debouncer
  readonly clock: Clock
  /** The instance's redactor and log, shared with the features beyond tools (features/). */
  readonly redact: Redact
  readonly log: Log
  /** Inherited variables already warned about: a reconnect does not repeat the warning. */
  private readonly warnedEnv = new Set<string>()
  private firstAttempt = true
  /**
   * The era the server spoke on the last connection (era.ts): reconnects reuse it, so the server
   * is probed once per instance; an attempt that fails with it forgets it, and the next probes.
   */
  private era?: Era

  constructor(private readonly options: ConnectionOptions) {
    this.clock = options.clock ?? systemClock
    this.redact = options.redact ?? createLearningRedactor([...configSecrets(options.config), ...authSecrets(options.config, process.env)])
    this.log = redactingLog(options.logger, this.redact)
    const { debounceMs, maxWaitMs } = options.config.listChanged
    this.listChanged = new Debouncer(this.clock, debounceMs, maxWaitMs, () => this.resync())
    this.options.onState?.(this.state, undefined)
    this.ready = this.runAttempt()
  }

  get status(): ConnectionState {
    return this.state
  }

  /** Every change is told (onState): hosts and the kit follow the connection without reaching in. */
  private setState(state: ConnectionState): void {
    this.state = state
    this.options.onState?.(state, this.session?.pid)
  }

  /** The live session, for the features beyond tools (features/); without one, why there is none. */
  live(): Session {
    if (!this.session) throw new BridgeError(this.unavailableReason(), 'SERVER_UNAVAILABLE')
    return this.session
  }

  /**
   * Ends the live session (if any) and connects afresh with a full attempt budget, as a user's
   * "reconnect" asks. One manual step at a time, after any attempt in flight: two reconnects never
   * leave two sessions. Resolves with the attempt's outcome.
   */
  reconnect(): Promise<{ error?: unknown }> {
    return this.manual.run(async () => {
      if (await this.endLive()) return { error: new BridgeError(this.unavailableReason(), 'SERVER_UNAVAILABLE') }
      this.failures = 0
      this.setState({ kind: 'connecting' })
      return this.runAttempt()
    })
  }

  /** Ends the live session and stays down, tools unregistered, until reconnect() or a reload. */
  disconnect(): Promise<void> {
    return this.manual.run(async () => {
      if (await this.endLive()) return
      const cleared = this.syncs.run(() => this.options.tools.clear())
      this.setState({ kind: 'stopped', reason: 'disconnected on request; reconnect() or a reload connects again' })
      this.log.info('disconnected on request')
      await cleared
    })
  }

  /** A manual step's start: no attempt in flight or scheduled, no live session. True when disposed. */
  private async endLive(): Promise<boolean> {
    this.clock.clearTimeout(this.timer)
    await this.attempting
    // The attempt may have scheduled a retry before it settled.
    this.clock.clearTimeout(this.timer)
    this.timer = undefined
    if (this.disposed) return true
    this.listChanged.cancel()
    const session = this.session
    // Cleared first: its close is then no loss to report (hooksFor's isLive).
    this.session = undefined
    this.connectedAt = undefined
    await session?.close()
    return this.disposed
  }

  /** The live stdio child's pid, for process accounting. */
  get pid(): number | undefined {
    return this.session?.pid
  }

  /** Sends a tools/call on the live session, or fails fast with the reason there is none. */
  async invoke(rawName: string, args: Record<string, unknown>, exec: ToolExecution, asTask = false): Promise<unknown> {
    const session = this.live()
    try {
      return await session.callTool(rawName, args, exec, asTask)
    } catch (error) {
      // Ended by the instance's own disposal (an unload or a reload), not by a lost connection:
      // nothing is being re-established, and the error should say so.
      if (this.disposed && !(BridgeError.is(error) && error.code === 'ABORTED')) {
        throw new BridgeError(`${this.unavailableReason()}; the call to ${rawName} was ended`, 'SERVER_UNAVAILABLE', { cause: error })
      }
      throw error
    }
  }

  /**
   * Stops everything and resolves only when every process this connection started is gone: the
   * live session, and an attempt in flight (a retry's child is stopped before this returns).
   */
  dispose(): Promise<void> {
    this.disposal ??= this.teardown()
    return this.disposal
  }

  private async teardown(): Promise<void> {
    this.disposed = true
    // First: a host whose registrations outlive the caller's scope would otherwise list the tools
    // until the child is gone (a grace period or two). sync() swaps nothing once disposed.
    this.options.tools.clear()
    const session = this.session
    this.session = undefined
    this.setState({ kind: 'disposed' })
    this.disposing.abort(new Error('the plugin is being disposed'))
    this.listChanged.cancel()
    this.clock.clearTimeout(this.timer)
    await session?.close()
    // Aborted above: it closes its own session, on the same grace clock.
    await this.attempting
    await this.syncs.idle()
  }

  /** Teardown awaits the latest attempt; one that has settled already costs it nothing. */
  private runAttempt(): Promise<{ error?: unknown }> {
    this.attempting = this.attempt()
    return this.attempting
  }

  /** One attempt under its deadline (connectTimeoutMs, or the instance's disposal), cleared once it settles. */
  private async attempt(): Promise<{ error?: unknown }> {
    await loadTransport(this.options.config)
    const deadline = startDeadline(this.options.config.connectTimeoutMs, [this.disposing.signal])
    try {
      return await this.attemptWithin(deadline.signal)
    } finally {
      deadline.clear()
    }
  }

  private async attemptWithin(deadline: AbortSignal): Promise<{ error?: unknown }> {
    const { config } = this.options
    let session: Session | undefined
    // Forgotten until this attempt's session has answered tools/list: adopting a cached modern
    // era takes no round trip, so a server replaced by one of another era shows only there, and
    // the next attempt must find the era out again.
    const known = this.era
    this.era = undefined
    try {
      session = await Session.open(config, this.hooksFor(() => session), deadline, this.redact, known)
    } catch (error) {
      this.era = eraAfterFailure(error)
      return this.attemptFailed(error)
    }
    if (this.disposed) {
      await session.close()
      return {}
    }
    this.session = session
    try {
      // The session's first sync, after any still in line; its failure is the attempt's to handle.
      await this.syncs.run(() => this.sync(deadline))
      this.era = session.era
    } catch (error) {
      // A bad tool list is the server's data, not its connection: reconnecting cannot fix it,
      // so the session stays up (with no tools) and a later list_changed can repair it.
      const dataError = BridgeError.is(error) && (error.code === 'INVALID_TOOL_LIST' || error.code === 'NAME_CONFLICT')
      if (dataError) this.era = session.era
      if (dataError && this.session === session) {
        this.log.error('tool list rejected, no tools registered until the server sends list_changed: %s', errorMessage(error))
        this.markConnected(session)
        return { error }
      }
      // When the session was already reported lost, that report scheduled the reconnect.
      if (this.session !== session) return { error }
      this.session = undefined
      await session.close()
      return this.attemptFailed(error)
    }
    this.markConnected(session)
    return {}
  }

  private attemptFailed(error: unknown): { error: unknown } {
    const first = this.firstAttempt
    this.firstAttempt = false
    if (this.disposed) return { error }
    const message = this.redact(errorMessage(error))
    if (BridgeError.is(error) && error.code === 'UNAUTHORIZED') {
      // Retrying with the same credentials cannot succeed, and hammering an auth endpoint is rude.
      return this.stop(`the server refused the credentials (${message}); fix the headers or auth and reload the plugin`, error)
    }
    if (BridgeError.is(error) && error.code === 'INVALID_CONFIG') {
      // A missing cwd or command does not appear by retrying.
      return this.stop(`${message.replace(/\.$/, '')}; then reload the plugin`, error)
    }
    if (first && this.options.noRetryOnFirstFailure) {
      // Activation rejects with this error; announcing a retry for an instance that is being torn down would mislead.
      return this.stop(`the first connection failed and failOnStartupError is set: ${message}`, error, 'warn')
    }
    this.log.warn('connection attempt failed: %s', message)
    this.scheduleReconnect(false)
    return { error }
  }

  /** Stays down with `reason` (as the state and in the log) until reconnect() or a reload. */
  private stop(reason: string, error?: unknown, level: 'error' | 'warn' = 'error'): { error: unknown } {
    this.setState({ kind: 'stopped', reason })
    this.log[level]('%s', reason)
    return { error }
  }

  private markConnected(session: Session): void {
    this.firstAttempt = false
    this.connectedAt = this.clock.now()
    this.setState({ kind: 'connected', server: session.serverVersion })
    if (this.failures > 0) {
      this.log.info('reconnected and re-synced tools (attempt %d/%d)', this.failures, this.options.config.reconnect.maxAttempts)
    }
  }

  private hooksFor(current: () => Session | undefined) {
    const isLive = () => !this.disposed && current() !== undefined && current() === this.session
    return {
      onToolListChanged: () => {
        if (isLive()) this.listChanged.notify()
      },
      onLost: (reason: string) => {
        if (!isLive()) return
        const session = this.session
        this.session = undefined
        void session?.close()
        this.log.warn('connection lost: %s', reason)
        this.scheduleReconnect(true)
      },
      onStderrLine: (line: string) => this.log.debug('stderr: %s', line),
      ...(this.options.onLogMessage && { onLogMessage: (params: unknown) => (this.disposed ? undefined : this.options.onLogMessage?.(params)) }),
      ...(this.options.onFeatureNotification && {
        onFeatureNotification: (method: FeatureNotification, params: unknown) => (this.disposed || !isLive() ? undefined : this.options.onFeatureNotification?.(method, params)),
      }),
      onNotice: (message: string) => this.log.warn('%s', message),
      onSecretLookingEnv: (names: string[]) => {
        const fresh = names.filter((name) => !this.warnedEnv.has(name))
        for (const name of fresh) this.warnedEnv.add(name)
        if (fresh.length) {
          // No "credential: set" in the wording: the log's redaction reads `name: value` as a secret.
          this.log.warn('inheritEnv passes %s to the server, and the name or value looks like a credential (set it in env if that is intended, or narrow inheritEnv)', fresh.join(', '))
        }
      },
    }
  }

  private scheduleReconnect(lost: boolean): void {
    const { reconnect } = this.options.config
    if (!reconnect.enabled) {
      this.stop(
        lost
          ? 'connection lost and reconnect is disabled: registered tools will fail until the plugin is reloaded'
          : 'connection failed and reconnect is disabled: reload the plugin to connect',
      )
      return
    }
    // The budget is per outage: it refills only after a connection stayed up for maxDelayMs.
    if (this.connectedAt !== undefined && this.clock.now() - this.connectedAt >= reconnect.maxDelayMs) this.failures = 0
    this.connectedAt = undefined
    this.failures += 1
    if (this.failures > reconnect.maxAttempts) {
      void this.syncs.run(() => this.options.tools.clear())
      this.stop(`gave up after ${reconnect.maxAttempts} consecutive failed reconnect attempts: tools unregistered; reload the plugin to reconnect`)
      return
    }
    const delayMs = backoffDelay(reconnect, this.failures)
    this.setState({ kind: 'reconnecting', attempt: this.failures, maxAttempts: reconnect.maxAttempts, delayMs })
    this.log.warn(
      lost ? 'connection lost; reconnecting in %dms (attempt %d/%d)' : 'connection failed; retrying in %dms (attempt %d/%d)',
      delayMs,
      this.failures,
      reconnect.maxAttempts,
    )
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined
      if (!this.disposed) void this.runAttempt()
    }, delayMs)
  }

  /** A sync for list_changed. A burst while one is queued collapses into it; a failure keeps the tools. */
  private resync(): void {
    if (this.resyncQueued) return
    this.resyncQueued = true
    const run = this.syncs.run(() => {
      this.resyncQueued = false
      return this.sync()
    })
    run.catch((error) => {
      if (!this.disposed) this.log.error('tool re-sync failed, keeping the previous tools: %s', errorMessage(error))
    })
  }

  private async sync(deadline?: AbortSignal): Promise<void> {
    const session = this.session
    if (!session || this.disposed) return
    const { config } = this.options
    // "Both parties MUST ... Only use capabilities that were successfully negotiated" (MCP
    // 2025-11-25 §basic/lifecycle Operation): a server without `tools` is not asked for any, and
    // its refusal cannot pass for a failed connection that a respawn might mend.
    if (!session.declaresTools) {
      if (this.toollessSession !== session) this.log.warn('server "%s" does not declare the tools capability: it has no tools to register', config.serverName)
      this.toollessSession = session
      this.options.tools.swap([])
      return
    }
    // A re-sync has a deadline of its own, cleared as soon as the listing settles.
    const own = deadline ? undefined : startDeadline(config.connectTimeoutMs, [this.disposing.signal])
    let listed: unknown[]
    try {
      listed = await session.listTools(deadline ?? own!.signal)
    } finally {
      own?.clear()
    }
    // A sync that outlived its session must not overwrite the newer generation.
    if (session !== this.session || this.disposed) return
    const { kept, unmatched } = filterTools(listed, config.tools)
    this.warnUnmatchedFilters(unmatched)
    const plan = planTools(config.serverName, kept, config.limits, { serverSupportsTasks: session.supportsToolTasks, preferTaskCalls: config.preferTaskCalls })
    for (const { name, reason } of plan.quarantined) this.log.warn('tool "%s" not registered: %s', name, reason)
    const options = {
      // Validators belong to this generation's definitions and are freed with them.
      compiler: new SchemaCompiler(),
      serverName: config.serverName,
      invoke: (raw: string, args: Record<string, unknown>, exec: ToolExecution, asTask: boolean) => this.invoke(raw, args, exec, asTask),
      limits: config.limits,
      imageServices: this.options.imageServices ?? (() => ({})),
      warn: (message: string) => this.log.warn('%s', message),
      redact: this.redact,
    }
    const entries = plan.tools.map((tool) => new PlannedTool(tool, options))
    this.options.tools.swap(entries)
    this.log.debug('registered %d tools', entries.length)
  }

  /** A filter entry that matches nothing is most likely a typo; said once, and again only when that changes. */
  private warnUnmatchedFilters(unmatched: FilteredTools['unmatched']): void {
    const key = JSON.stringify(unmatched)
    if (key === this.unmatchedFilters) return
    this.unmatchedFilters = key
    for (const { field, entry } of unmatched) {
      this.log.warn('tools.%s entry "%s" matches none of the tools server "%s" lists: check the name', field, entry, this.options.config.serverName)
    }
  }

  private unavailableReason(): string {
    const name = this.options.config.serverName
    const state = this.state
    switch (state.kind) {
      case 'reconnecting':
        return `MCP server "${name}" is reconnecting (attempt ${state.attempt} of ${state.maxAttempts}, next try in ${state.delayMs} ms); try again shortly`
      case 'stopped':
        return `MCP server "${name}" is disconnected: ${state.reason}`
      case 'disposed':
        return `MCP server "${name}" has been unloaded`
      default:
        return `MCP server "${name}" is still connecting`
    }
  }
}
