import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js'

export interface TapHooks {
  /** Sees every incoming message first; returning false swallows it (the server never hears it). */
  received(message: JSONRPCMessage): boolean
  /** May replace an outgoing message before anything else sees it (a modern answer's `resultType`). */
  outgoing?(message: JSONRPCMessage): JSONRPCMessage
  /** Sees every outgoing message just before the transport gets it. */
  sending(message: JSONRPCMessage): void
  /** After the transport accepted an outgoing message. */
  sent(message: JSONRPCMessage): void
}

/**
 * Sits between the SDK Server and its transport: the one place messages are recorded, swallowed
 * (hangs) and observed after they left (call counters, triggers). With `holdStandalone`, messages
 * not tied to a request wait until the client has a stream to receive them: the HTTP transport
 * drops them silently when no GET stream is open, which would make list_changed timing a race.
 */
export class TapTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void

  private streamOpen = false
  private held: Array<() => Promise<void>> = []

  constructor(
    private readonly inner: Transport,
    private readonly hooks: TapHooks,
    private readonly holdStandalone = false,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version)
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (this.hooks.received(message)) this.onmessage?.(message, extra)
    }
    this.inner.onclose = () => this.onclose?.()
    this.inner.onerror = (error) => this.onerror?.(error)
    await this.inner.start()
  }

  async send(original: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const message = this.hooks.outgoing?.(original) ?? original
    const standalone = options?.relatedRequestId === undefined && !('result' in message || 'error' in message)
    const deliver = async () => {
      this.hooks.sending(message)
      await this.inner.send(message, options)
      this.hooks.sent(message)
    }
    if (this.holdStandalone && standalone && !this.streamOpen) {
      this.held.push(deliver)
      return
    }
    await deliver()
  }

  /** The client opened its standalone stream: deliver what was held, in order. */
  async streamOpened(): Promise<void> {
    // Messages sent while the backlog drains join the backlog, so order holds.
    while (this.held.length > 0) {
      const held = this.held
      this.held = []
      for (const deliver of held) await deliver().catch((error: Error) => this.onerror?.(error))
    }
    this.streamOpen = true
  }

  streamClosed(): void {
    this.streamOpen = false
  }

  close(): Promise<void> {
    return this.inner.close()
  }
}
