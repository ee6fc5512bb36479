import { z } from 'zod'

/**
 * `subscriptions/listen` (MCP 2026-07-28 basic/patterns/subscriptions): a modern client's one way
 * to hear of changes, since a modern server sends nothing unsolicited. The fixture honours
 * `toolsListChanged` when it has a `listChanged` timeline (declared as a capability or not, as
 * legacy clients hear it either way); other filters are left out of the acknowledgment ("Notification types the server does not support
 * are omitted"). A subscription lasts until the client cancels it (notifications/cancelled on
 * stdio, closing the stream over HTTP) or the fixture closes, which ends it with a completion
 * result (Graceful Closure).
 */

export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId'

/** The SDK v1 Server routes the request by this schema. */
export const ListenRequestSchema = z.object({
  method: z.literal('subscriptions/listen'),
  params: z
    .object({
      notifications: z
        .object({
          toolsListChanged: z.boolean().optional(),
          promptsListChanged: z.boolean().optional(),
          resourcesListChanged: z.boolean().optional(),
          resourceSubscriptions: z.array(z.string()).optional(),
        })
        .loose()
        .optional(),
    })
    .loose(),
})

/**
 * What the fixture can deliver on a stream: tool-list changes (a `listChanged` timeline), prompt
 * and resource list changes (beyond-schema.ts `change`), resource updates (`subscribe`, whose
 * `alsoUpdate` URIs are sent right after the acknowledgment with the subscribed ones).
 */
export interface Offers {
  tools: boolean
  prompts: boolean
  resources: boolean
  subscribe?: { alsoUpdate: string[] }
}

export type ListenRequest = z.infer<typeof ListenRequestSchema>

type Notify = (notification: { method: string; params: Record<string, unknown> }) => Promise<void>

interface Subscription {
  id: string | number
  tools: boolean
  prompts: boolean
  resources: boolean
  notify: Notify
  end(): void
}

export class Subscriptions {
  private readonly open = new Set<Subscription>()

  /**
   * Serves one listen request: the acknowledgment first ("MUST send
   * notifications/subscriptions/acknowledged as the first message carrying the subscription's ID"),
   * then the subscription stays open; the promise is the request's answer, given only at a
   * graceful end. An aborted request (cancelled, or its transport closed) is never answered.
   */
  async listen(id: string | number, request: ListenRequest, offers: Offers, notify: Notify, signal: AbortSignal): Promise<Record<string, unknown>> {
    const asked = request.params.notifications
    const tools = offers.tools && asked?.toolsListChanged === true
    const prompts = offers.prompts && asked?.promptsListChanged === true
    const resources = offers.resources && asked?.resourcesListChanged === true
    const uris = offers.subscribe ? (asked?.resourceSubscriptions ?? []) : []
    const honoured = {
      ...(tools && { toolsListChanged: true }),
      ...(prompts && { promptsListChanged: true }),
      ...(resources && { resourcesListChanged: true }),
      ...(uris.length > 0 && { resourceSubscriptions: uris }),
    }
    await notify({ method: 'notifications/subscriptions/acknowledged', params: { _meta: { [SUBSCRIPTION_ID]: id }, notifications: honoured } })
    for (const uri of uris.length > 0 ? [...uris, ...offers.subscribe!.alsoUpdate] : []) {
      await notify({ method: 'notifications/resources/updated', params: { _meta: { [SUBSCRIPTION_ID]: id }, uri } })
    }
    return new Promise((resolve) => {
      const subscription: Subscription = { id, tools, prompts, resources, notify, end: () => resolve({ _meta: { [SUBSCRIPTION_ID]: id } }) }
      if (signal.aborted) return
      this.open.add(subscription)
      signal.addEventListener('abort', () => this.open.delete(subscription), { once: true })
    })
  }

  /** notifications/tools/list_changed on every subscription that asked for it, each with its ID. */
  toolsChanged(meta: Record<string, unknown>, failed: (error: Error) => void): void {
    for (const subscription of this.open) {
      if (!subscription.tools) continue
      subscription.notify({ method: 'notifications/tools/list_changed', params: { _meta: { ...meta, [SUBSCRIPTION_ID]: subscription.id } } }).catch(failed)
    }
  }

  /** A prompts or resources list_changed on every subscription that asked for it. */
  listChanged(kind: 'prompts' | 'resources', failed: (error: Error) => void): void {
    for (const subscription of this.open) {
      if (!subscription[kind]) continue
      subscription.notify({ method: `notifications/${kind}/list_changed`, params: { _meta: { [SUBSCRIPTION_ID]: subscription.id } } }).catch(failed)
    }
  }

  /** Ends every subscription with its completion result, before the transports close. */
  endAll(): void {
    for (const subscription of this.open) subscription.end()
    this.open.clear()
  }

  get size(): number {
    return this.open.size
  }
}
