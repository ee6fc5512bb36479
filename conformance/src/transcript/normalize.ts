/**
 * The one place transcripts are made deterministic. Pure. Everything that varies between runs of
 * the same scenario (JSON-RPC ids, session ids, ports, temp paths, times, durations) is replaced
 * by a stable token; object keys are sorted so serialisation is canonical; and how many times a
 * notification repeats in a row, which the scheduler decides, is not recorded (collapseRuns).
 */

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi
const LOOPBACK_PORT = /(127\.0\.0\.1|localhost|\[::1\]):\d+/g
const TEMP_PATH = /(?:\/tmp|\/var\/folders|\/private\/tmp)\/[^\s"',)]+/g
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\b/g
const DURATION_KEY = /(^|[a-z])(ms|Ms|elapsed|Elapsed|duration|Duration|timestamp|Timestamp)$/

export function normalizeText(text: string): string {
  return text
    .replace(UUID, '<uuid>')
    .replace(LOOPBACK_PORT, '$1:<port>')
    .replace(TEMP_PATH, '<tmp>')
    .replace(ISO_TIME, '<time>')
    .replace(/\b\d+ ?ms\b/g, '<n>ms')
}

/** Canonical form of any JSON value: sorted keys, normalised strings, durations tokenised. */
export function normalizeValue(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return normalizeText(value)
  if (typeof value === 'number' && DURATION_KEY.test(key)) return '<duration>'
  if (Array.isArray(value)) return value.map((item) => normalizeValue(item))
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(value).sort()) out[k] = normalizeValue((value as Record<string, unknown>)[k], k)
    return out
  }
  return value
}

export interface WireMessage {
  dir: 'recv' | 'send'
  msg: object
}

/**
 * JSON-RPC ids (and the progress tokens and cancellation ids that point at them) are renumbered
 * in order of first appearance, per direction of the request, so they compare across runs.
 */
export function normalizeWire(entries: WireMessage[]): WireMessage[] {
  const ids = new Map<string, number>()
  const idOf = (requester: 'client' | 'server', id: unknown) => {
    const key = `${requester}:${String(id)}`
    if (!ids.has(key)) ids.set(key, [...ids.keys()].filter((k) => k.startsWith(requester)).length + 1)
    return `${requester === 'client' ? 'c' : 's'}${ids.get(key)}`
  }
  return entries.map(({ dir, msg }) => {
    const copy = structuredClone(msg) as Record<string, unknown>
    const isRequest = typeof copy.method === 'string' && 'id' in copy
    const isResponse = !('method' in copy) && 'id' in copy
    // A request the fixture received came from the client; a response it sent answers the client.
    const requester = (isRequest && dir === 'recv') || (isResponse && dir === 'send') ? 'client' : 'server'
    if (isRequest || isResponse) copy.id = idOf(requester, copy.id)
    const params = copy.params as Record<string, unknown> | undefined
    if (params && copy.method === 'notifications/cancelled' && 'requestId' in params) {
      params.requestId = idOf(dir === 'recv' ? 'client' : 'server', params.requestId)
    }
    const meta = params?._meta as Record<string, unknown> | undefined
    if (meta && 'progressToken' in meta) meta.progressToken = '<token>'
    if (params && copy.method === 'notifications/progress' && 'progressToken' in params) params.progressToken = '<token>'
    return { dir, msg: normalizeValue(copy) as object }
  })
}

/** A transcript line: one message, or (`repeated`) a run of one or more of the same notification. */
export type WireLine = WireMessage & { repeated: boolean }

/**
 * Transcripts record order, not counts that depend on scheduling: a server that reports progress
 * every 100 ms until the client's timer ends the call sends 7 ticks on an idle machine and 6 on a
 * loaded one. A run of consecutive notifications in one direction that are equal, once a progress
 * notification's own counter is masked, is one line marked `repeated`, its length not shown (a
 * scenario bounds a count that matters with `expect.received`). A progress notification is a tick
 * of the sender's clock, so it reads as a run even alone: one tick on a stalled machine and seven
 * on a fast one give the same line. Any other notification is a run only when it repeats.
 */
export function collapseRuns(entries: WireMessage[]): WireLine[] {
  const lines: WireLine[] = []
  let runKey: string | undefined
  for (const entry of entries) {
    const tick = isProgress(entry.msg)
    const shown = tick ? { dir: entry.dir, msg: maskProgress(entry.msg) } : entry
    const key = isNotification(entry.msg) ? `${entry.dir} ${JSON.stringify(shown.msg)}` : undefined
    if (key !== undefined && key === runKey) {
      lines[lines.length - 1]!.repeated = true
      continue
    }
    runKey = key
    lines.push({ ...shown, repeated: tick })
  }
  return lines
}

function isNotification(msg: object): boolean {
  return typeof (msg as { method?: unknown }).method === 'string' && !('id' in msg)
}

function isProgress(msg: object): boolean {
  return isNotification(msg) && (msg as { method: string }).method === 'notifications/progress'
}

/** The tick's counter is what differs between ticks; the token and the total stay. */
function maskProgress(msg: object): object {
  const params = (msg as { params?: Record<string, unknown> }).params
  if (!params || typeof params !== 'object' || !('progress' in params)) return msg
  return { ...msg, params: { ...params, progress: '<n>' } }
}
