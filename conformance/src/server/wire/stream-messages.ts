/**
 * Which of the session's streams carried each server message that names itself, for the
 * transport sentences on broadcast and replay (2025-03-26 on: multiple connections, resumability
 * and redelivery). A server request is one message wherever it is seen (the same id, method and
 * params); a response answers one request, whose stream it belongs to. Notifications carry no
 * identity (two alike may be two messages), so they are not followed.
 */
import { answers, classify } from './jsonrpc.ts'

/** One message seen on two streams, or replayed on a stream it was not sent on. */
export interface StreamCrossing {
  /** What the message is, in a few words ("ping request id \"s1\"", "the response to request 3"). */
  message: string
  first: string
  second: string
}

/** Bounds: the first identities remembered, and the crossings kept as evidence (every one is counted). */
const MAX_KEYS = 10_000
const KEEP = 10

/** The identity of a server request: the same message wherever it arrives. */
export function requestKey(value: unknown): { key: string; label: string } | undefined {
  const incoming = classify(value)
  if (incoming.kind !== 'request') return undefined
  return { key: JSON.stringify(incoming.message), label: `${incoming.method} request id ${JSON.stringify(incoming.id)}` }
}

export class StreamMessages {
  /** Server request → the stream that carried it first. */
  private readonly owner = new Map<string, string>()
  readonly broadcasts: StreamCrossing[] = []
  broadcastCount = 0
  readonly replays: StreamCrossing[] = []
  replayCount = 0
  /** Request streams the kit resumed with GET and Last-Event-ID. */
  resumed = 0
  /** Server requests followed across streams. */
  get requests(): number {
    return this.owner.size
  }

  /** The server requests a request's own stream carried (not its resumptions). */
  sent(stream: string, messages: readonly unknown[]): void {
    for (const value of messages) {
      const found = requestKey(value)
      if (!found) continue
      const first = this.owner.get(found.key)
      if (first === undefined) {
        if (this.owner.size < MAX_KEYS) this.owner.set(found.key, stream)
      } else if (first !== stream) this.crossed(this.broadcasts, { message: found.label, first, second: stream }, 'broadcast')
    }
  }

  /** What a resumption of request `id`'s stream brought: only that stream's messages may come again. */
  replayed(stream: string, id: number, messages: readonly unknown[], others: (responseId: string | number) => string | undefined): void {
    this.resumed++
    for (const value of messages) {
      const incoming = classify(value)
      if (incoming.kind === 'response' && !answers(incoming.id, id)) {
        const owner = others(incoming.id)
        if (owner !== undefined) this.crossed(this.replays, { message: `the response to ${owner}`, first: owner, second: stream }, 'replay')
        continue
      }
      const found = requestKey(value)
      const first = found && this.owner.get(found.key)
      if (found && first !== undefined && first !== stream) this.crossed(this.replays, { message: found.label, first, second: stream }, 'replay')
      else if (found && first === undefined && this.owner.size < MAX_KEYS) this.owner.set(found.key, stream)
    }
  }

  /** Where a stream the kit did not resume (the session's GET stream) repeated a request some request stream carried. */
  ownerOf(value: unknown): { label: string; stream: string } | undefined {
    const found = requestKey(value)
    const stream = found && this.owner.get(found.key)
    return found && stream !== undefined ? { label: found.label, stream } : undefined
  }

  private crossed(list: StreamCrossing[], crossing: StreamCrossing, kind: 'broadcast' | 'replay'): void {
    if (kind === 'broadcast') this.broadcastCount++
    else this.replayCount++
    if (list.length < KEEP) list.push(crossing)
  }
}
