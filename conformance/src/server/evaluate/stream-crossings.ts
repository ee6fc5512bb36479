/**
 * Pure verdicts on messages that crossed streams (wire/stream-messages.ts records them): a server
 * request broadcast on two of the session's streams, and a resumption that replayed another
 * stream's messages. Only messages that name themselves count, so what decides a verdict is what
 * the server wrote on which stream, never how many of anything arrived in time.
 */
import type { CheckResult } from '../../model.ts'
import { count, list, judge } from '../check.ts'
import { NO_BROADCAST, REPLAY_OWN_STREAM } from '../registry/transports.ts'
import type { StreamCrossing, StreamMessages } from '../wire/stream-messages.ts'

/** What the session's GET stream carried (structurally evaluate/http.ts's Probe). */
type GetStream = { response: { status?: number; messages: unknown[] } }

const described = (c: StreamCrossing) => `${c.message}, first on the stream of ${c.first}, again on ${c.second}`

export function judgeBroadcast(streams: StreamMessages | undefined, getStream: GetStream | undefined, v: string): CheckResult {
  const j = judge(NO_BROADCAST, v)
  if (!streams) return j.skip('no request stream was recorded')
  const onGet: StreamCrossing[] = []
  for (const message of getStream?.response.messages ?? []) {
    const owner = streams.ownerOf(message)
    if (owner) onGet.push({ message: owner.label, first: owner.stream, second: 'the session’s GET stream' })
  }
  const crossings = [...streams.broadcasts, ...onGet]
  const total = streams.broadcastCount + onGet.length
  if (total > 0) return j.breach(`${count(total, 'server message')} sent on two streams: ${list(crossings.map(described), 3)}`, { details: { crossings: crossings.slice(0, 10) } })
  if (streams.requests === 0) return j.skip('the server sent no request on any stream; notifications carry no identity to follow, so nothing to judge')
  const listened = (getStream?.response.status ?? 500) < 300
  return j.pass(`${count(streams.requests, 'server request')}, each on one stream only${listened ? ' (the GET stream repeated none)' : ''}`)
}

export function judgeReplay(streams: StreamMessages | undefined, v: string): CheckResult {
  const j = judge(REPLAY_OWN_STREAM, v)
  if (!streams || streams.resumed === 0) return j.skip('the server closed no request stream before its response, so the kit resumed none; nothing to judge')
  if (streams.replayCount > 0) return j.breach(`${count(streams.replayCount, 'message')} of another stream replayed on a resumption: ${list(streams.replays.map(described), 3)}`, { details: { replays: streams.replays } })
  return j.pass(`${count(streams.resumed, 'resumption')} of request streams, none replaying another stream’s messages`)
}
