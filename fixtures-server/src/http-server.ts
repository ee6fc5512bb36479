import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { FixtureStatus } from './content.ts'
import { FixtureEngine } from './engine.ts'
import { requestedVersion } from './era.ts'
import { FixtureHttpHandler, firstCall, parseJson } from './http-handler.ts'
import { parseBehaviour } from './parse.ts'
import { prepareRuntime, type RuntimeOptions } from './runtime.ts'
import type { Behaviour, BehaviourInput } from './schema.ts'
import type { WireLog } from './wire.ts'

export interface HttpFixtureOptions extends RuntimeOptions {
  /** Default 0: the OS picks a free port. Reuse a port to "restart" a fixture at the same URL. */
  port?: number
  /** Scripted stderr lines; in-process fixtures drop them unless told where they go. */
  stderr?: (line: string) => void
  /** Environment names the `env` block reports; default the names in process.env. */
  envNames?: () => string[]
  /** Called once the fixture has died by script (after it closed), e.g. to exit a CLI process. */
  onExit?: (code: number) => void
}

export interface HttpFixture {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string
  port: number
  /** In memory when `memoryWire` was asked for. */
  wire?: WireLog
  /** Settles with the scripted exit code when the fixture "crashes"; an in-process crash closes the listener. */
  exited: Promise<number>
  status(): FixtureStatus
  close(): Promise<void>
}

/** How long a draining exit waits for answers already on their way out. */
const DRAIN_LIMIT_MS = 500

/**
 * A Streamable HTTP fixture on a real 127.0.0.1 socket. Scripted crashes close the listener and
 * every connection (the process survives, so tests can host many fixtures).
 */
export async function startHttpFixture(behaviour: Behaviour | BehaviourInput, options: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const parsed = parseBehaviour(behaviour)
  const runtime = prepareRuntime(parsed, options)
  const sockets = new Set<Socket>()
  const inFlight = new Set<Promise<void>>()
  let resolveExited!: (code: number) => void
  const exited = new Promise<number>((resolve) => (resolveExited = resolve))
  /** The one shutdown: whoever asks again (close() during a scripted crash) waits for the same. */
  let closing: Promise<void> | undefined
  let crashing: Promise<void> | undefined

  const engine = new FixtureEngine(parsed, {
    start: runtime.start,
    wire: runtime.wire,
    host: {
      exit: (code, drain) => void (crashing ??= crash(code, drain)),
      stderr: options.stderr ?? (() => {}),
      envNames: options.envNames ?? (() => Object.keys(process.env)),
    },
  })
  const handler = new FixtureHttpHandler(engine, parsed.http, runtime.start)

  const server = createServer((req, res) => {
    const done = serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end()
      else res.destroy()
    })
    // GET streams stay open for the whole session; only answers are worth draining.
    if (req.method !== 'GET') {
      inFlight.add(done)
      void done.finally(() => inFlight.delete(done))
    }
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`)
    if (!handler.serves(url.pathname)) {
      // Probes elsewhere (OAuth metadata of a fixture without OAuth, say) are part of what a client did.
      runtime.wire?.recordHttp({ method: req.method ?? 'GET', path: url.pathname, status: 404 })
      return void res.writeHead(404).end()
    }
    const request = await toRequest(req, url)
    const body = request.method === 'POST' ? parseJson(await request.clone().text()) : undefined
    const rpc = request.method === 'POST' ? firstCall(body).method : undefined
    // What a 2026-07-28 request carries besides (era.ts judges it; the kit's client rules read it here).
    const metaVersion = Array.isArray(body) ? undefined : requestedVersion(body)
    const mcpMethod = req.headers['mcp-method']
    const mcpName = req.headers['mcp-name']
    const outcome = await handler.handle(request)
    const session = req.headers['mcp-session-id']
    const protocolVersion = req.headers['mcp-protocol-version']
    const accept = req.headers.accept
    const newSession = 'drop' in outcome ? undefined : (outcome.response.headers.get('mcp-session-id') ?? undefined)
    const record = (answered: boolean) =>
      runtime.wire?.recordHttp({
        method: req.method ?? 'GET',
        path: url.pathname,
        ...(rpc !== undefined ? { rpc } : {}),
        status: 'drop' in outcome ? 'dropped' : outcome.response.status,
        ...(typeof session === 'string' ? { session } : {}),
        ...(typeof protocolVersion === 'string' ? { protocolVersion } : {}),
        ...(typeof accept === 'string' ? { accept } : {}),
        ...(metaVersion !== undefined ? { metaVersion: metaVersion.slice(0, 64) } : {}),
        ...(typeof mcpMethod === 'string' ? { mcpMethod: mcpMethod.slice(0, 256) } : {}),
        ...(typeof mcpName === 'string' ? { mcpName: mcpName.slice(0, 256) } : {}),
        ...(newSession && newSession !== session && answered ? { newSession } : {}),
        // OAuth: the credential an endpoint request carried, or a token request and its outcome.
        ...('response' in outcome ? outcome.log : {}),
      })
    // A streamed answer is logged when it begins: an initialize whose answer never came opened no
    // session the client could use, whatever id its headers carried.
    const streamed = 'response' in outcome && req.method === 'POST' && (outcome.response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    if (!streamed) record(true)
    if ('drop' in outcome) return void req.socket.destroy()
    await writeResponse(res, outcome.response, streamed ? record : undefined)
  }

  function shutdown(): Promise<void> {
    closing ??= (async () => {
      await handler.close()
      await engine.close()
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    })()
    return closing
  }

  async function crash(code: number, drain: boolean): Promise<void> {
    if (drain) await Promise.race([Promise.all(inFlight), new Promise((resolve) => setTimeout(resolve, DRAIN_LIMIT_MS))])
    await shutdown()
    resolveExited(code)
    options.onExit?.(code)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  engine.begin()
  // A crash at start is over before anyone hears of the fixture (a CLI exits before its ready line).
  if (crashing) await crashing
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    wire: runtime.wire,
    exited,
    status: () => engine.status(),
    close: shutdown,
  }
}

async function toRequest(req: IncomingMessage, url: URL): Promise<Request> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const chunks: Buffer[] = []
  if (hasBody) for await (const chunk of req) chunks.push(chunk as Buffer)
  return new Request(url, { method: req.method, headers, body: hasBody ? new Uint8Array(Buffer.concat(chunks)) : undefined })
}

/** `began(true)` before the first body byte, or `began(false)` once the answer ended without one. */
async function writeResponse(res: ServerResponse, response: Response, began?: (answered: boolean) => void): Promise<void> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => (headers[name] = value))
  res.writeHead(response.status, headers)
  // SSE clients wait for headers before the first event, which may be far away.
  res.flushHeaders()
  if (!response.body) {
    began?.(false)
    return void res.end()
  }
  const reader = response.body.getReader()
  let closed = false
  res.once('close', () => {
    closed = true
    void reader.cancel().catch(() => {})
  })
  let answered = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || closed) break
      if (!answered) began?.((answered = true))
      // Backpressure: a flood read by a client that gave up must not pile up in this process.
      if (!res.write(value) && !closed) await drained(res)
    }
  } finally {
    if (!answered) began?.(false)
  }
  res.end()
}

/** Resolves when the response can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
