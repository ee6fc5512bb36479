/**
 * The one place transcripts are made deterministic. Pure. Everything that varies between runs of
 * the same scenario (JSON-RPC ids, session ids, ports, temp paths, times, durations) is replaced
 * by a stable token; object keys are sorted so serialisation is canonical.
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
