import { isRecord, jsonByteLength, quoteUntrusted, type Redact } from '@mcp-bridge/process'
import { asksTaken } from '../asks/client-asks.ts'
import type { Config } from '../config.ts'
import type { ServerConnection } from '../connection.ts'
import { BridgeError } from '../errors.ts'
import type { ConnectionState } from '../host-contract.ts'
import type { Log } from '../log.ts'
import { Debouncer } from '@mcp-bridge/process'
import type { FeatureNotification, Session } from '../session.ts'
import { completionParams, completionResult, type Completion } from './completions.ts'
import type { FeaturesConfig } from './config.ts'
import { freshForMs } from './freshness.ts'
import { drainList, type ListKind } from './lists.ts'
import { checkPromptArguments, promptResult, type PromptResult } from './prompts.ts'
import { ReadCache } from './read-cache.ts'
import { readResult, type ReadResult } from './resources.ts'
import { ResourceSubscriptions, type UpdateListener, type UpdateWire } from './subscriptions.ts'

export interface FeatureCallOptions {
  /** Ends the request: the server is sent notifications/cancelled. */
  signal?: AbortSignal
}

/** A cached listing of one session, and until when (clock time) it is served without asking. */
interface Listing {
  items: Record<string, unknown>[]
  freshUntil: number
}

/** Which listings a list_changed notification makes stale. */
const CHANGED: Partial<Record<FeatureNotification, ListKind[]>> = {
  'notifications/resources/list_changed': ['resources', 'templates'],
  'notifications/prompts/list_changed': ['prompts'],
}

/** The feature (and capability) a listing belongs to. */
const FEATURE_OF: Record<ListKind, 'resources' | 'prompts'> = { resources: 'resources', templates: 'resources', prompts: 'prompts' }

/** The capability each feature needs the server to have declared, and the feature flag that offers it. */
const NEEDS = {
  resources: { capability: 'resources', flag: 'resources' },
  prompts: { capability: 'prompts', flag: 'prompts' },
  completions: { capability: 'completions', flag: 'completions' },
} as const satisfies Record<string, { capability: string; flag: keyof FeaturesConfig }>

/**
 * One server as other plugins reach it through the `mcpServers` service: its connection (status,
 * reconnect, disconnect) and the features beyond tools its configuration offers. A request goes
 * out only for a feature that is both configured and declared by the server ("Both parties MUST:
 * Only use capabilities that were successfully negotiated", MCP 2025-11-25 §basic/lifecycle
 * Operation); otherwise it fails at once with NOT_OFFERED and the fix.
 */
export class McpServer {
  /** The last prompt listing of a session: getPrompt checks arguments against it. */
  private prompts = new WeakMap<Session, Map<string, Record<string, unknown>>>()
  /** Listings per session: a new session (a reconnect, perhaps with other credentials) starts empty. */
  private listings = new WeakMap<Session, Map<ListKind, Listing>>()
  /** Reads held by their 2026-07-28 cache hint, per session as listings are (read-cache.ts). */
  private reads = new WeakMap<Session, ReadCache>()
  /** Counts resource notifications: a read that overlapped one is not held, as it may predate the change. */
  private resourceNews = 0
  /** Listings a list_changed made stale, re-synced together once the burst settles. */
  private readonly stale = new Set<ListKind>()
  private readonly changes: Debouncer
  private readonly subscriptions: ResourceSubscriptions
  /** The session the subscriptions are carried on. */
  private wired?: Session

  constructor(
    private readonly connection: ServerConnection,
    private readonly config: Config,
    private readonly redact: Redact,
    private readonly log: Log,
    /** Told after a list_changed re-sync replaced a listing (the service emits `mcp/list-changed`). */
    private readonly onListChanged: (kind: ListKind, items: Record<string, unknown>[]) => void = () => {},
  ) {
    const { debounceMs, maxWaitMs } = config.listChanged
    this.changes = new Debouncer(connection.clock, debounceMs, maxWaitMs, () => void this.resync())
    this.subscriptions = new ResourceSubscriptions(config.features.maxSubscriptions, log, config.serverName)
  }

  get serverName(): string {
    return this.config.serverName
  }

  get status(): ConnectionState {
    return this.connection.status
  }

  /** Ends the live session and connects afresh, with a full attempt budget; resolves with the state it reached. */
  async reconnect(): Promise<ConnectionState> {
    await this.connection.reconnect()
    return this.connection.status
  }

  /** Ends the live session and stays down (tools unregistered) until reconnect() or a reload. */
  async disconnect(): Promise<void> {
    await this.connection.disconnect()
  }

  /** The `instructions` the server gave at initialize, redacted and cut at limits.maxDescriptionChars; undefined when it gave none. */
  instructions(): string | undefined {
    if (!this.config.features.instructions) throw this.off('instructions')
    const text = this.connection.live().instructions
    return typeof text === 'string' && text.length > 0 ? quoteUntrusted(text, this.config.limits.maxDescriptionChars, this.redact) : undefined
  }

  listResources(options: FeatureCallOptions = {}): Promise<Record<string, unknown>[]> {
    return this.list('resources', 'resources', options)
  }

  listResourceTemplates(options: FeatureCallOptions = {}): Promise<Record<string, unknown>[]> {
    return this.list('resources', 'templates', options)
  }

  /**
   * The resource's contents, whole (within limits.maxResultBytes), text or base64 blob per entry;
   * served from the session's held reads while the server's `ttlMs` says the last one is fresh.
   */
  async readResource(uri: string, options: FeatureCallOptions = {}): Promise<ReadResult> {
    if (typeof uri !== 'string' || uri.length === 0) throw new BridgeError('readResource needs the URI of a listed resource (a non-empty string)', 'INVALID_ARGS')
    const session = this.session('resources')
    const held = this.reads.get(session)?.get(uri, this.connection.clock.now())
    if (held) return held
    const before = { asks: asksTaken(this.config), news: this.resourceNews }
    const result = await session.request('resources/read', { uri }, signalOf(options))
    const read = readResult(result, uri, this.config.limits)
    // Held only when nothing came meanwhile that could make it the answer of a retried request
    // (an input_required round answered by an ask) or older than a change the server told of.
    const ms = freshForMs(result.ttlMs, false)
    if (ms > 0 && asksTaken(this.config) === before.asks && this.resourceNews === before.news) {
      const reads = this.reads.get(session) ?? new ReadCache(this.config.limits.maxResultBytes)
      this.reads.set(session, reads)
      reads.put(uri, read, jsonByteLength(read), this.connection.clock.now() + ms)
    }
    return read
  }

  /**
   * Calls `listener` with `{ uri, title? }` on each notifications/resources/updated for `uri`
   * (resources/subscribe with a legacy server, subscriptions/listen with a 2026-07-28 one). Needs
   * features.resources and a server that declares `resources.subscribe`; at most
   * features.maxSubscriptions URIs. Held across reconnects (subscribed again on each new session);
   * the returned function ends it (unsubscribing when it was the URI's last listener).
   */
  async subscribe(uri: string, listener: UpdateListener): Promise<() => Promise<void>> {
    const session = this.session('resources')
    const resources = session.capabilities.resources
    if (!(typeof resources === 'object' && resources !== null && (resources as { subscribe?: unknown }).subscribe === true)) {
      throw new BridgeError(`server "${this.serverName}" does not declare resources.subscribe, so the bridge does not subscribe to its resources`, 'NOT_OFFERED')
    }
    if (this.wired !== session) await this.rewire(session)
    return this.subscriptions.add(uri, listener, () => this.wireFor(session))
  }

  /** A notification for the features (attach.ts routes them here). */
  notified(method: FeatureNotification, params: unknown): void {
    if (method.startsWith('notifications/resources/')) this.forgetReads(method, params)
    if (method === 'notifications/resources/updated') return this.subscriptions.updated(params)
    for (const kind of CHANGED[method] ?? []) this.stale.add(kind)
    this.changes.notify()
  }

  /**
   * "When a relevant notification is received while a cached response is still fresh, the
   * notification invalidates the cached response" (server/utilities/caching): an update drops the
   * held read of its URI; a list change, which may have removed resources, drops them all.
   */
  private forgetReads(method: FeatureNotification, params: unknown): void {
    this.resourceNews++
    let reads
    try {
      reads = this.reads.get(this.connection.live())
    } catch {
      return
    }
    if (method !== 'notifications/resources/updated') reads?.clear()
    else if (isRecord(params) && typeof params.uri === 'string') reads?.drop(params.uri)
  }

  /** A new session: subscriptions are carried over to it (their server side went with the old one). */
  connected(): void {
    let session
    try {
      session = this.connection.live()
    } catch {
      return
    }
    if (this.subscriptions.size > 0 && this.wired !== session) void this.rewire(session)
  }

  /** The instance or the service goes: nothing is re-synced or delivered any more. */
  close(): void {
    this.changes.cancel()
    this.subscriptions.close()
  }

  listPrompts(options: FeatureCallOptions = {}): Promise<Record<string, unknown>[]> {
    return this.list('prompts', 'prompts', options)
  }

  /** The prompt's messages, its arguments checked first against the server's listing (prompts.ts). */
  async getPrompt(name: string, args: Record<string, string> = {}, options: FeatureCallOptions = {}): Promise<PromptResult> {
    const session = this.session('prompts')
    let prompt = this.prompts.get(session)?.get(name)
    // Not listed yet, or added since: one fresh listing decides.
    if (!prompt) {
      await this.list('prompts', 'prompts', options)
      prompt = this.prompts.get(session)?.get(name)
    }
    if (!prompt) throw new BridgeError(`server "${this.serverName}" lists no prompt named "${String(name).slice(0, 80)}": listPrompts() shows the names it has`, 'INVALID_ARGS')
    const checked = checkPromptArguments(prompt, args)
    return promptResult(await session.request('prompts/get', { name, arguments: checked }, signalOf(options)), name, this.config.limits)
  }

  /** completion/complete for a prompt's or a resource template's argument. */
  async complete(ref: unknown, argument: unknown, options: FeatureCallOptions = {}): Promise<Completion> {
    const params = completionParams(ref, argument)
    const session = this.session('completions')
    return completionResult(await session.request('completion/complete', params, signalOf(options)))
  }

  /**
   * A fresh cached listing when there is one (freshness.ts), else the whole list, asked anew. One a
   * list_changed made stale is never served, even before the debounced re-sync replaces it.
   */
  private async list(feature: keyof typeof NEEDS, kind: ListKind, options: FeatureCallOptions): Promise<Record<string, unknown>[]> {
    const session = this.session(feature)
    const held = this.listings.get(session)?.get(kind)
    if (held && held.freshUntil > this.connection.clock.now() && !this.stale.has(kind)) return held.items
    return this.fetch(session, kind, signalOf(options))
  }

  private async fetch(session: Session, kind: ListKind, signal: AbortSignal): Promise<Record<string, unknown>[]> {
    const { items, dropped, ttlMs } = await drainList(kind, (method, params) => session.request(method, params, signal), this.config.limits)
    if (dropped) this.log.warn('%d entries of the %s list of server "%s" were left out: each needs its identifier as a string of reasonable length', dropped, kind, this.serverName)
    // Stored whole or not at all: a listing is replaced in one step.
    const capability = session.capabilities[FEATURE_OF[kind]] as { listChanged?: unknown } | undefined
    const listings = this.listings.get(session) ?? new Map<ListKind, Listing>()
    listings.set(kind, { items, freshUntil: this.connection.clock.now() + freshForMs(ttlMs, capability?.listChanged === true) })
    this.listings.set(session, listings)
    if (kind === 'prompts') this.prompts.set(session, new Map(items.map((prompt) => [prompt.name as string, prompt])))
    return items
  }

  /**
   * After a burst of list_changed: each stale listing this session holds is listed anew and
   * replaced whole; one that fails to list keeps the old listing, and says why in one line.
   * A listing never asked for needs no re-sync, but callers still hear of the change.
   */
  private async resync(): Promise<void> {
    const kinds = [...this.stale]
    this.stale.clear()
    let session: Session
    try {
      session = this.connection.live()
    } catch {
      return
    }
    for (const kind of kinds) {
      if (!this.config.features[FEATURE_OF[kind]]) continue
      const held = this.listings.get(session)?.get(kind)
      if (!held) {
        if (kind !== 'templates') this.tell(kind, undefined)
        continue
      }
      try {
        this.tell(kind, await this.fetch(session, kind, new AbortController().signal))
      } catch (error) {
        this.log.warn('re-listing the %s of server "%s" after list_changed failed; the previous list stays: %s', kind, this.serverName, error instanceof Error ? error.message : String(error))
      }
    }
  }

  private tell(kind: ListKind, items: Record<string, unknown>[] | undefined): void {
    try {
      this.onListChanged(kind, items ?? [])
    } catch (error) {
      this.log.warn('a list change listener threw: %s', error instanceof Error ? error.message : String(error))
    }
  }

  private async rewire(session: Session): Promise<void> {
    this.wired = session
    await this.subscriptions.rewire(this.wireFor(session))
  }

  /** How this session carries subscriptions: per URI with a legacy server, one listen with a 2026-07-28 one. */
  private wireFor(session: Session): UpdateWire {
    // The wire outlives any one caller: only the session's end (close) aborts what it has in flight.
    const stop = new AbortController()
    const { signal } = stop
    if (session.era?.kind !== 'modern') {
      return {
        add: async (uri) => void (await session.request('resources/subscribe', { uri }, signal)),
        remove: async (uri) => void (stop.signal.aborted ? undefined : await session.request('resources/unsubscribe', { uri }, signal)),
        close: () => stop.abort(),
      }
    }
    let open: { close(): Promise<void> } | undefined
    let covered = ''
    const listen = async (all: string[]) => {
      const key = JSON.stringify([...all].sort())
      if (key === covered) return
      const next = all.length > 0 ? await session.listenForUpdates(all, signal) : undefined
      const previous = open
      open = next
      covered = key
      await previous?.close()
    }
    return {
      add: (_uri, all) => listen(all),
      remove: (_uri, all) => listen(all),
      close: () => {
        stop.abort()
        void open?.close().catch(() => {})
      },
    }
  }

  /** The live session, when the feature is configured and the server declared it. */
  private session(feature: keyof typeof NEEDS): Session {
    const { capability, flag } = NEEDS[feature]
    if (!this.config.features[flag]) throw this.off(flag)
    const session = this.connection.live()
    if (session.capabilities[capability] === undefined) {
      throw new BridgeError(`server "${this.serverName}" does not declare the ${capability} capability, so the bridge does not ask it for ${feature}`, 'NOT_OFFERED')
    }
    return session
  }

  private off(flag: keyof FeaturesConfig): BridgeError {
    return new BridgeError(`features.${flag} is off for server "${this.serverName}": set it to true in the instance's configuration to offer it`, 'NOT_OFFERED')
  }
}

/** The caller's signal, or one that never aborts: toolCallTimeoutMs still bounds the request. */
function signalOf(options: FeatureCallOptions): AbortSignal {
  return options.signal ?? new AbortController().signal
}
