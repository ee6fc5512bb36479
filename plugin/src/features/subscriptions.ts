import { BridgeError } from '../errors.ts'
import type { Log } from '../log.ts'
import { isRecord } from '@mcp-bridge/process'
import { isId } from './lists.ts'

/** What a subscriber is told: the URI that changed, and its title when the server gave one. */
export interface ResourceUpdate {
  uri: string
  title?: string
}

export type UpdateListener = (update: ResourceUpdate) => void

/**
 * How one session carries subscriptions: resources/subscribe and /unsubscribe per URI (MCP
 * 2025-11-25 and before), or one subscriptions/listen naming every URI (2026-07-28). `all` is the
 * set after the change.
 */
export interface UpdateWire {
  add(uri: string, all: string[]): Promise<void>
  remove(uri: string, all: string[]): Promise<void>
  /** The session is gone or replaced: let go of whatever it holds, without waiting. */
  close(): void
}

/**
 * The resource subscriptions of one server, kept across its sessions: at most `max` URIs, each
 * with its listeners. A URI is subscribed on the wire when its first listener comes and
 * unsubscribed when its last goes; a subscription the server refuses leaves nothing behind. A new
 * session (a reconnect) gets every URI again (`rewire`). Updates for a URI nobody subscribed to
 * are ignored, whatever the server sends.
 */
export class ResourceSubscriptions {
  private readonly listeners = new Map<string, Set<UpdateListener>>()
  private wire?: UpdateWire
  /** Wire changes one at a time, in order: a listen is never replaced by an older one. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly max: number,
    private readonly log: Log,
    private readonly serverName: string,
  ) {}

  get size(): number {
    return this.listeners.size
  }

  /** Adds a listener; resolves with its disposer once the server has the subscription. */
  async add(uri: string, listener: UpdateListener, wire: () => UpdateWire): Promise<() => Promise<void>> {
    if (!isId(uri)) throw new BridgeError('subscribe needs the URI of a resource (a non-empty string of at most 8192 characters)', 'INVALID_ARGS')
    if (typeof listener !== 'function') throw new BridgeError('subscribe needs a listener function, called with { uri } on each update', 'INVALID_ARGS')
    const known = this.listeners.get(uri)
    if (!known && this.listeners.size >= this.max) {
      throw new BridgeError(`server "${this.serverName}" already has features.maxSubscriptions (${this.max}) subscribed URIs: dispose one first, or raise the limit`, 'INVALID_ARGS')
    }
    if (known) known.add(listener)
    else {
      this.listeners.set(uri, new Set([listener]))
      try {
        await this.serially(() => this.current(wire).add(uri, [...this.listeners.keys()]))
      } catch (error) {
        // Refused or lost: nothing half-applied stays behind.
        if (this.listeners.get(uri)?.size === 1) this.listeners.delete(uri)
        throw error
      }
    }
    let disposed = false
    return async () => {
      if (disposed) return
      disposed = true
      const set = this.listeners.get(uri)
      set?.delete(listener)
      if (!set || set.size > 0) return
      this.listeners.delete(uri)
      await this.serially(() => this.wire?.remove(uri, [...this.listeners.keys()])).catch((error: unknown) => {
        this.log.warn('unsubscribing from a resource of server "%s" failed (its updates are ignored anyway): %s', this.serverName, error instanceof Error ? error.message : String(error))
      })
    }
  }

  /** notifications/resources/updated: each listener of that exact URI, each in isolation. */
  updated(params: unknown): void {
    if (!isRecord(params) || !isId(params.uri)) return
    const listeners = this.listeners.get(params.uri)
    if (!listeners) return
    const update: ResourceUpdate = { uri: params.uri, ...(typeof params.title === 'string' && { title: params.title.slice(0, 200) }) }
    for (const listener of [...listeners]) {
      try {
        listener(update)
      } catch (error) {
        this.log.warn('a resource update listener for server "%s" threw: %s', this.serverName, error instanceof Error ? error.message : String(error))
      }
    }
  }

  /** A new session: every URI is subscribed again on it; a URI it refuses is told once and kept for the next. */
  rewire(wire: UpdateWire): Promise<void> {
    this.wire?.close()
    this.wire = wire
    const uris = [...this.listeners.keys()]
    return this.serially(async () => {
      for (const uri of uris) {
        if (this.wire !== wire) return
        await wire.add(uri, uris).catch((error: unknown) => {
          this.log.warn('re-subscribing to a resource of server "%s" after reconnecting failed: %s', this.serverName, error instanceof Error ? error.message : String(error))
        })
      }
    })
  }

  /** The instance goes: the wire is let go, the listeners forgotten. */
  close(): void {
    this.wire?.close()
    this.wire = undefined
    this.listeners.clear()
  }

  private current(make: () => UpdateWire): UpdateWire {
    this.wire ??= make()
    return this.wire
  }

  private serially<T>(step: () => Promise<T> | undefined): Promise<T | undefined> {
    const next = this.queue.then(step, step)
    this.queue = next.catch(() => {})
    return next
  }
}
