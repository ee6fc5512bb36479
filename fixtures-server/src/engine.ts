import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  InitializeRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  type CallToolRequest,
  type InitializeRequest,
  type InitializeResult,
  type JSONRPCMessage,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { answersAsks, askDuringCall, askEarly, completeElicitations, inputRequired } from './asks.ts'
import { beyondCapabilities, floodLogs, serveBeyond } from './beyond.ts'
import { admit, META, modernResult, supportedVersions, type Refusal } from './era.ts'
import { renderResult, type CancellationRecord, type FixtureStatus } from './content.ts'
import { paginate } from './pagination.ts'
import type { Behaviour, ToolSpec } from './schema.ts'
import { TapTransport } from './tap.ts'
import { declaresTasks, TaskBoard, taskNegotiationError, TASKS_CAPABILITY, type Outcome } from './tasks.ts'
import { ListenRequestSchema, Subscriptions, type ListenRequest } from './subscriptions.ts'
import { planTimeline } from './timeline.ts'
import { Timers } from './timers.ts'
import { ToolSet } from './tool-set.ts'
import type { WireLog } from './wire.ts'

/** What an edge provides: how to die, where stderr goes, which environment names exist. */
export interface Host {
  /** End the fixture. `drain`: responses already sent should reach the client first. */
  exit(code: number, drain: boolean): void
  stderr(line: string): void
  envNames(): string[]
}

export interface EngineOptions {
  host: Host
  /** This start's number, from the state file; 1 when starts are not counted. */
  start?: number
  wire?: WireLog
}

export const GENERATION_META_KEY = 'fixture/generation'

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>

interface RequestRecord {
  method: string
  tool?: string
  answered: boolean
}

interface Session {
  server: Server
  requests: Map<string | number, RequestRecord>
  initialized: boolean
  /** Opened with initialize: server-initiated messages (ping, list_changed) may go to it; never to a modern client. */
  legacy: boolean
  /** Requests served at the modern era: their results carry `resultType` and the server's identity. */
  modern: Set<string | number>
  /** Modern requests that answer the fixture's asks (asks.ts): the SDK's parse drops their `inputResponses`. */
  answers: Set<string | number>
  tap?: TapTransport
}

/** server/discover (2026-07-28 server/discover.mdx): the SDK v1 Server routes it by this schema. */
const DiscoverRequestSchema = z.object({ method: z.literal('server/discover'), params: z.optional(z.object({}).loose()) })

/** A JSON-RPC error with exactly this code and message (McpError would prefix the message). */
class ScriptedError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

const never = () => new Promise<never>(() => {})

/**
 * One engine per fixture; its behaviour is data. Every client connection (the stdio pipe, or one
 * HTTP session) gets its own SDK Server, while tools, counters, the list_changed timeline and the
 * crash script are shared.
 */
export class FixtureEngine {
  readonly tools: ToolSet
  private readonly sessions = new Set<Session>()
  private readonly timers = new Timers()
  private readonly cancellations: CancellationRecord[] = []
  /** Modern clients' subscriptions/listen streams, across sessions (each HTTP POST is one). */
  private readonly subscriptions = new Subscriptions()
  private readonly start: number
  /** False once `crash.starts` healthy starts are reached: scripted faults apply only while true. */
  readonly misbehaving: boolean
  private calls = 0
  private answeredCalls = 0
  private timelineStarted = false
  private anyInitialized = false
  /** Task-augmented calls (tasks.ts), when some tool has task options. */
  private readonly tasks: TaskBoard | undefined

  constructor(
    readonly behaviour: Behaviour,
    private readonly options: EngineOptions,
  ) {
    this.tools = new ToolSet(behaviour.tools)
    this.start = options.start ?? 1
    const starts = behaviour.crash?.starts
    this.misbehaving = starts === undefined || this.start <= starts
    this.tasks = declaresTasks(behaviour)
      ? new TaskBoard({
          seed: behaviour.seed,
          timers: this.timers,
          outcome: (tool, name, args) => this.outcome(tool, name, args),
          error: (code, message, data) => new ScriptedError(code, message, data),
        })
      : undefined
  }

  /** Start-up noise, then the crash script's clock. */
  begin(): void {
    for (const line of this.behaviour.stderr ?? []) this.options.host.stderr(line)
    const crash = this.behaviour.crash
    if (!crash || !this.misbehaving) return
    if (crash.onStart) return this.exit(crash.exitCode, false)
    if (crash.afterMs !== undefined) this.timers.schedule(crash.afterMs, () => this.exit(crash.exitCode, false))
  }

  /**
   * Serves one client connection. `holdStandalone`: keep server-initiated messages until the
   * client has a stream for them (HTTP).
   */
  async connect(transport: Transport, holdStandalone = false): Promise<TapTransport> {
    const { name, version, instructions, listChanged, declareTools } = this.behaviour
    const tools = listChanged?.capability ? { listChanged: true } : {}
    const server = new Server(
      { name, version },
      {
        capabilities: { ...(declareTools && { tools }), ...(this.tasks && { tasks: TASKS_CAPABILITY }), ...beyondCapabilities(this.behaviour) },
        instructions,
      },
    )
    const session: Session = { server, requests: new Map(), initialized: false, legacy: false, modern: new Set(), answers: new Set() }
    const tap = new TapTransport(
      transport,
      {
        received: (message) => this.received(session, message),
        outgoing: (message) => this.outgoing(session, message),
        sending: (message) => this.options.wire?.record('send', message),
        sent: (message) => this.sent(session, message),
      },
      holdStandalone,
    )
    // Server refuses tools handlers without the capability; declareTools: false serves them anyway.
    if (!declareTools) Object.assign(server, { assertRequestHandlerCapability: () => {} })
    server.setRequestHandler(ListToolsRequestSchema, (request, extra) => this.listTools(request.params?.cursor, session.modern.has(extra.requestId)))
    // Server checks tools/call results against the SDK schema; registering on Protocol directly
    // lets a script send invalid base64 or unknown block types exactly as written.
    Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, (request: CallToolRequest, extra: Extra) =>
      this.callTool(request, extra, server),
    )
    serveBeyond(server, this.behaviour, this.subscriptions)
    if (this.behaviour.era !== 'legacy') {
      server.setRequestHandler(DiscoverRequestSchema, () => this.discover() as ServerResult)
      server.setRequestHandler(ListenRequestSchema, (request, extra) => this.listen(session, request, extra))
    }
    if (this.tasks) this.serveTasks(server, this.tasks)
    // Without the capability, a task-augmented request MUST be processed normally, its `task`
    // ignored (§Task Support and Handling); the SDK would refuse it with -32603 instead.
    else Object.assign(server, { assertTaskHandlerCapability: () => {} })
    if (this.behaviour.protocolVersion !== undefined) this.answerInitializeWith(server, this.behaviour.protocolVersion)
    server.oninitialized = () => this.initialized(session)
    server.onclose = () => this.sessions.delete(session)
    server.onerror = (error) => this.options.host.stderr(`[mcp-fixture] ${error.message}`)
    session.tap = tap
    this.sessions.add(session)
    await server.connect(tap)
    return tap
  }

  status(): FixtureStatus {
    return {
      start: this.start,
      calls: this.calls,
      generation: this.tools.generation,
      cancellations: [...this.cancellations],
      sessions: this.sessions.size,
    }
  }

  /** Stops every clock and closes every session. */
  async close(): Promise<void> {
    this.timers.stop()
    // Graceful Closure: each subscription's completion result is queued before its transport closes.
    this.subscriptions.endAll()
    await Promise.all([...this.sessions].map((session) => session.server.close().catch(() => {})))
  }

  private exit(code: number, drain: boolean): void {
    if (this.timers.isStopped) return
    this.timers.stop()
    this.options.host.exit(code, drain)
  }

  /**
   * Something the client sent that the SDK refused as JSON-RPC (the edges call this: the SDK drops
   * it without a trace): logged as sent, so a malformed request is judged, not taken for silence.
   */
  rejected(sent: unknown, reason: string, raw?: string): void {
    this.options.wire?.recordInvalid(sent, reason, raw)
  }

  /**
   * A request the HTTP edge refused before any session saw it (era.ts: a wrong version, a missing
   * header): logged both ways, as if the server had answered it.
   */
  refused(message: JSONRPCMessage, refusal: Refusal): void {
    this.options.wire?.record('recv', message)
    if ('id' in message && 'method' in message) this.options.wire?.record('send', refusalMessage(message.id, refusal))
  }

  /** A notification a modern HTTP client posted (no session to hand it to): logged, a cancellation counted. */
  heard(message: JSONRPCMessage): void {
    this.options.wire?.record('recv', message)
    if ('method' in message && message.method === 'notifications/cancelled') {
      const { requestId, reason } = (message.params ?? {}) as { requestId: string | number; reason?: string }
      this.cancelled(requestId, reason)
    }
  }

  /**
   * A request cancelled: by notifications/cancelled, or (modern HTTP) by the client closing its
   * response stream before the answer, which the server MUST treat as cancellation (streamable-http "Cancellation").
   */
  cancelled(requestId: string | number, reason: string | undefined, only?: 'unanswered'): void {
    const record = [...this.sessions].map((session) => session.requests.get(requestId)).find((found) => found !== undefined)
    if (only === 'unanswered' && (!record || record.answered)) return
    this.cancellations.push({ requestId, reason, method: record?.method, tool: record?.tool, answered: record?.answered ?? false })
  }

  private received(session: Session, message: JSONRPCMessage): boolean {
    this.options.wire?.record('recv', message)
    if ('method' in message && 'id' in message) {
      const tool = message.method === 'tools/call' ? String(message.params?.name) : undefined
      session.requests.set(message.id, { method: message.method, tool, answered: false })
      if (this.misbehaving && this.behaviour.crash?.hangOn.includes(message.method)) return false
      const verdict = admit(this.behaviour.era, message)
      if ('refuse' in verdict) {
        void session.tap?.send(refusalMessage(message.id, verdict.refuse)).catch(() => {})
        return false
      }
      if (verdict.serve === 'modern') {
        session.modern.add(message.id)
        if (answersAsks(message.params)) session.answers.add(message.id)
        this.firstContact(session)
      }
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      const { requestId, reason } = (message.params ?? {}) as { requestId: string | number; reason?: string }
      const record = session.requests.get(requestId)
      this.cancellations.push({ requestId, reason, method: record?.method, tool: record?.tool, answered: record?.answered ?? false })
    }
    return true
  }

  /** A modern request's result gets what 2026-07-28 requires of every result (era.ts). */
  private outgoing(session: Session, message: JSONRPCMessage): JSONRPCMessage {
    if (!('result' in message) || !session.modern.has(message.id)) return message
    const { result } = message
    // A scripted unusable result (rawResult: an array, a string) stays as unusable as written.
    if (typeof result !== 'object' || result === null || Array.isArray(result)) return message
    const { name, version } = this.behaviour
    return { ...message, result: modernResult(result, { name, version }) as typeof result }
  }

  /** What server/discover answers: the versions, the capabilities a legacy client would see, the identity. */
  private discover(): Record<string, unknown> {
    const { name, version, instructions, listChanged, declareTools } = this.behaviour
    return {
      supportedVersions: supportedVersions(this.behaviour.era),
      capabilities: { ...(declareTools && { tools: listChanged?.capability ? { listChanged: true } : {} }), ...(this.tasks && { tasks: TASKS_CAPABILITY }), ...beyondCapabilities(this.behaviour) },
      ...(instructions !== undefined && { instructions }),
      // The fixture's answers change with its script: nothing is worth caching.
      ttlMs: 0,
      cacheScope: 'public',
      _meta: { [META.serverInfo]: { name, version } },
    }
  }

  /**
   * A modern client has no initialized notification: its first served request is the moment a
   * legacy one would have sent it, so timed scripts (the list_changed timeline) start there too.
   */
  private firstContact(session: Session): void {
    if (session.initialized) return
    session.initialized = true
    this.armTimeline()
  }

  private sent(session: Session, message: JSONRPCMessage): void {
    if ('method' in message || !('id' in message) || message.id === undefined) return
    const record = session.requests.get(message.id)
    if (!record || record.answered) return
    record.answered = true
    if (record.method === 'tools/call') this.callAnswered(record.tool, session)
    const early = this.behaviour.earlyAsks
    if (record.method === 'initialize' && early) askEarly(session.server, early, this.behaviour.askTimeoutMs, (error) => this.options.host.stderr(`[mcp-fixture] ask not sent: ${error.message}`))
  }

  private callAnswered(tool: string | undefined, session: Session): void {
    this.answeredCalls++
    if (this.behaviour.ping?.afterCalls === this.answeredCalls && session.legacy) void session.server.ping().catch(() => {})
    const { listChanged, crash } = this.behaviour
    if (listChanged && (listChanged.afterCalls === this.answeredCalls || (tool !== undefined && listChanged.onTool === tool))) {
      this.startTimeline()
    }
    if (this.misbehaving && crash?.afterCalls === this.answeredCalls) this.exit(crash.exitCode, true)
  }

  /** The SDK answers the requested version when it knows it; a script may insist on its own. */
  private answerInitializeWith(server: Server, protocolVersion: string): void {
    const answer = (server as unknown as { _oninitialize(request: InitializeRequest): Promise<InitializeResult> })._oninitialize.bind(server)
    server.setRequestHandler(InitializeRequestSchema, async (request) => ({ ...(await answer(request)), protocolVersion }))
  }

  private initialized(session: Session): void {
    session.initialized = true
    session.legacy = true
    // The client's answer (or its silence) is in the wire log; the fixture only asks.
    const ping = this.behaviour.ping
    if (ping && ping.afterCalls === undefined) this.timers.schedule(ping.afterMs ?? 0, () => void session.server.ping().catch(() => {}))
    floodLogs(session.server, this.behaviour).catch((error: Error) => this.options.host.stderr(`[mcp-fixture] log flood cut short: ${error.message}`))
    this.armTimeline()
  }

  /** The first client to be ready starts the list_changed timeline's clock (its default trigger). */
  private armTimeline(): void {
    const listChanged = this.behaviour.listChanged
    if (this.anyInitialized || !listChanged) return
    this.anyInitialized = true
    if (listChanged.afterCalls === undefined && listChanged.onTool === undefined) {
      this.timers.schedule(listChanged.afterMs ?? 0, () => this.startTimeline())
    }
  }

  private startTimeline(): void {
    const spec = this.behaviour.listChanged
    if (!spec || this.timelineStarted) return
    this.timelineStarted = true
    const events = planTimeline(spec)
    const t0 = Date.now()
    let next = 0
    // Everything due runs in one turn, in plan order; then one timer for the next due event.
    const run = () => {
      const elapsed = Date.now() - t0
      while (next < events.length && events[next]!.atMs <= elapsed) {
        const event = events[next++]!
        if ('notify' in event) this.notifyListChanged()
        else this.tools.apply(event.apply)
      }
      if (next < events.length) this.timers.schedule(events[next]!.atMs - elapsed, run)
    }
    run()
  }

  private notifyListChanged(): void {
    const generation = this.behaviour.listChanged?.generation ? { [GENERATION_META_KEY]: this.tools.generation } : undefined
    const failed = (error: Error) => this.options.host.stderr(`[mcp-fixture] list_changed not sent: ${error.message}`)
    for (const session of this.sessions) {
      // Unsolicited only to legacy clients: 2026-07-28 delivers it on subscriptions/listen streams.
      if (!session.legacy) continue
      session.server.notification({ method: 'notifications/tools/list_changed', ...(generation && { params: { _meta: generation } }) }).catch(failed)
    }
    this.subscriptions.toolsChanged(generation ?? {}, failed)
  }

  /** subscriptions/listen (subscriptions.ts), a modern request only: to a legacy client it is an unknown method. */
  private listen(session: Session, request: ListenRequest, extra: Extra): Promise<ServerResult> {
    if (!session.modern.has(extra.requestId)) throw new ScriptedError(-32601, 'Method not found: subscriptions/listen belongs to 2026-07-28')
    const notify = (notification: { method: string; params: Record<string, unknown> }) => extra.sendNotification(notification as ServerNotification)
    // As to legacy clients, a scripted timeline is announced whether or not the capability is declared.
    const { listChanged, prompts, resources } = this.behaviour
    const offers = { tools: listChanged !== undefined, prompts: prompts?.change !== undefined, resources: resources?.change !== undefined, ...(resources?.subscribe && { subscribe: resources.subscribe }) }
    return this.subscriptions.listen(extra.requestId, request, offers, notify, extra.signal) as Promise<ServerResult>
  }

  private listTools(cursor: string | undefined, modern: boolean): ServerResult {
    const result = paginate(this.tools.list(), this.behaviour.pagination, cursor, this.behaviour.seed)
    if (!result.ok) throw new ScriptedError(-32602, result.message)
    const { items, nextCursor } = result.page
    const meta = this.behaviour.listChanged?.generation ? { _meta: { [GENERATION_META_KEY]: this.tools.generation } } : {}
    // A modern tools/list is a cacheable result (schema: ListToolsResult); a scripted list changes, so never fresh.
    const cache = modern ? { ttlMs: 0, cacheScope: 'public' } : {}
    return { tools: items, ...(nextCursor !== undefined && { nextCursor }), ...meta, ...cache } as ServerResult
  }

  private serveTasks(server: Server, tasks: TaskBoard): void {
    server.setRequestHandler(GetTaskRequestSchema, (request) => tasks.get(request.params.taskId) as ServerResult)
    server.setRequestHandler(GetTaskPayloadRequestSchema, (request, extra) => tasks.result(request.params.taskId, extra.signal) as Promise<ServerResult>)
    server.setRequestHandler(CancelTaskRequestSchema, (request) => tasks.cancel(request.params.taskId) as ServerResult)
    server.setRequestHandler(ListTasksRequestSchema, (request) => tasks.list(request.params?.cursor) as ServerResult)
  }

  private async callTool(request: CallToolRequest, extra: Extra, server: Server): Promise<ServerResult> {
    const { name, arguments: args } = request.params
    this.calls++
    const tool = this.tools.find(name)
    if (!tool) throw new ScriptedError(-32602, `Unknown tool: ${name}`)
    for (const line of [tool.stderr ?? []].flat()) this.options.host.stderr(line)
    // Without the tasks capability, `task` is ignored and every tool answers plainly (§Task Support and Handling).
    if (this.tasks) {
      const asTask = request.params.task !== undefined
      const refused = taskNegotiationError(tool, name, asTask)
      if (refused) throw new ScriptedError(-32601, refused)
      if (asTask) {
        const origin = { progressToken: extra._meta?.progressToken, notify: (notification: ServerNotification) => server.notification(notification) }
        return this.tasks.create(tool, name, args, request.params.task, origin) as ServerResult
      }
    }
    const session = [...this.sessions].find((candidate) => candidate.server === server)
    const modern = session?.modern.has(extra.requestId) === true
    if (tool.asks) {
      // At 2026-07-28 the asks travel in an input_required result; before, as requests of their own.
      const asking = modern && !session?.answers.has(extra.requestId) ? inputRequired(tool.asks) : undefined
      if (asking) return asking as ServerResult
      if (!modern) await askDuringCall(tool.asks, extra, this.behaviour.askTimeoutMs)
    }
    // 2026-07-28 has no notifications/elicitation/complete: a modern call sends none. Nor does a
    // client that declared no URL-mode elicitation get one (the SDK's server refuses to send it).
    if (tool.elicitationComplete && !modern && server.getClientCapabilities()?.elicitation?.url) await completeElicitations(tool.elicitationComplete, extra)
    if (tool.exit !== undefined) {
      this.exit(tool.exit === true ? (this.behaviour.crash?.exitCode ?? 1) : tool.exit, false)
      return never()
    }
    if (tool.delayMs) await this.timers.sleep(tool.delayMs, extra.signal)
    if (tool.progress) await this.reportProgress(tool.progress, extra)
    if (tool.hang || extra.signal.aborted) return never()
    // Past the SDK's types on purpose: the point of rawResult is a result no client can accept.
    if (tool.rawResult !== undefined) return tool.rawResult as ServerResult
    const outcome = this.outcome(tool, name, args)
    if ('error' in outcome) throw new ScriptedError(outcome.error.code, outcome.error.message, outcome.error.data)
    return outcome.result as ServerResult
  }

  /** What a call of the tool answers once it is done: the scripted error, or its result rendered now. */
  private outcome(tool: ToolSpec, name: string, args: unknown): Outcome {
    if (tool.error) return { error: tool.error }
    const { host } = this.options
    return {
      result: renderResult(tool.result, {
        seed: this.behaviour.seed,
        tool: name,
        args,
        envNames: () => host.envNames(),
        status: () => this.status(),
      }),
    }
  }

  private async reportProgress({ intervalMs, durationMs }: NonNullable<ToolSpec['progress']>, extra: Extra): Promise<void> {
    const token = extra._meta?.progressToken
    const total = Math.max(1, Math.floor(durationMs / intervalMs))
    for (let progress = 1; progress <= total; progress++) {
      await this.timers.sleep(intervalMs, extra.signal)
      if (extra.signal.aborted) return
      if (token !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total } })
      }
    }
  }
}

function refusalMessage(id: string | number, refusal: Refusal): JSONRPCMessage {
  const { code, message, data } = refusal
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } } as JSONRPCMessage
}
