import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The path of the redirect URI: what the listener answers; anything else is a 404. */
export const CALLBACK_PATH = '/callback'

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback` (RFC 8252 §7.3: the loopback IP literal, not `localhost`). */
  redirectUri: string
  /** The first request to the callback path, as a URL; rejects with `signal`'s reason. */
  callback: Promise<URL>
  /** Stops listening (idempotent); the listener also stops once the callback came or `signal` aborted. */
  close(): Promise<void>
}

/**
 * A one-shot redirect listener on 127.0.0.1 and an ephemeral port (RFC 8252 §7.3), for the
 * person's browser to bring the authorization response back. It serves one callback and closes,
 * and waits no longer than `signal` allows (the caller's deadline): nothing is left listening.
 */
export async function listenForRedirect(signal: AbortSignal): Promise<LoopbackRedirect> {
  signal.throwIfAborted()
  let resolve!: (url: URL) => void
  let reject!: (error: unknown) => void
  const callback = new Promise<URL>((res, rej) => ((resolve = res), (reject = rej)))
  // A caller that gave up (and never awaits) must not see an unhandled rejection.
  callback.catch(() => {})
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1`)
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n')
      return
    }
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', connection: 'close' })
    response.end('The MCP bridge received the sign-in response. You can close this tab.\n')
    resolve(url)
    void close()
  })
  let closed: Promise<void> | undefined
  const close = () =>
    (closed ??= new Promise<void>((done) => {
      signal.removeEventListener('abort', onAbort)
      server.close(() => done())
      server.closeAllConnections()
    }))
  const onAbort = () => {
    reject(signal.reason)
    void close()
  }
  await new Promise<void>((listening, failed) => {
    server.once('error', failed)
    server.listen(0, '127.0.0.1', () => listening())
  })
  signal.addEventListener('abort', onAbort, { once: true })
  if (signal.aborted) onAbort()
  const { port } = server.address() as AddressInfo
  return { redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`, callback, close }
}
