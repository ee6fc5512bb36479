import type { FaultSpec } from './schema.ts'

/**
 * The scripted HTTP answers a hostile or broken server gives instead of serving a request:
 * error bodies (optionally quoting the caller's headers back, as servers that echo the request
 * do) and floods (answers far larger than any client should accept).
 */

export const jsonError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })

/** Every request header, as a server that dumps the request into its error page shows it. */
export function quoteHeaders(request: Request): string {
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => (headers[name] = value))
  return JSON.stringify(headers)
}

/** A `fail` fault: the scripted body, the request headers quoted back, or a plain JSON-RPC error. */
export function failure(fault: FaultSpec, request: Request): Response {
  const echoed = fault.echoHeaders ? ` (request headers: ${quoteHeaders(request)})` : ''
  if (fault.body !== undefined) return new Response(`${fault.body}${echoed}`, { status: fault.status, headers: { 'content-type': 'text/plain' } })
  return jsonError(fault.status, -32603, `Scripted HTTP ${fault.status}${echoed}`)
}

const CHUNK = 64 * 1024

/**
 * A `flood` fault: a 200 answer to request `id` whose text block is `fault.bytes` long. Produced
 * chunk by chunk as the client reads, so the fixture's memory stays flat whatever the size.
 */
export function flood(fault: FaultSpec, id: unknown): Response {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":{"content":[{"type":"text","text":"`
  const tail = '"}]}}'
  const sse = fault.as === 'sse'
  const parts = [sse ? `event: message\ndata: ${head}` : head]
  let left = fault.bytes ?? 0
  const filler = 'x'.repeat(CHUNK)
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = parts.shift()
      if (next !== undefined) return controller.enqueue(encoder.encode(next))
      if (left > 0) {
        const size = Math.min(left, CHUNK)
        left -= size
        return controller.enqueue(encoder.encode(size === CHUNK ? filler : filler.slice(0, size)))
      }
      controller.enqueue(encoder.encode(sse ? `${tail}\n\n` : tail))
      controller.close()
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': sse ? 'text/event-stream' : 'application/json' } })
}
