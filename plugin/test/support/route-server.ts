import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { onTestFinished } from 'vitest'

/** A path → answer table on a real socket on 127.0.0.1 (closed when the test ends); `hits` lists every path asked, in order. */
export async function serveRoutes(routes: (origin: string) => Record<string, { status?: number; body: unknown }>) {
  const hits: string[] = []
  let table: Record<string, { status?: number; body: unknown }> = {}
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    hits.push(path)
    const route = table[path]
    response.writeHead(route?.status ?? (route ? 200 : 404), { 'content-type': 'application/json' })
    response.end(route ? JSON.stringify(route.body) : '{"error":"not found"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  table = routes(origin)
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { origin, hits }
}
