import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { afterTest } from './support/cleanup.ts'
import { startHost, stateOf } from './support/host.ts'

/**
 * A modern-only server (MCP 2026-07-28, the SDK's v2 server over Streamable HTTP) whose process
 * dies while a call is in flight: the call's POST answered with an event stream that breaks
 * before the response. The call fails at once as SERVER_UNAVAILABLE in the legacy era's words,
 * the loss is reported, and the connection comes back when the server does. A call that waits
 * legitimately (progress first, the answer later) still gets its answer.
 */
const require = createRequire(import.meta.url)
const serverModule = pathToFileURL(require.resolve('@modelcontextprotocol/server')).href
const zodModule = pathToFileURL(require.resolve('zod')).href

/** `node --input-type=module -e SERVER PORT`: prints its port, and when calls of hang and slow are under way. */
const SERVER = `
  import { createServer } from 'node:http'
  import { createMcpHandler, McpServer } from '${serverModule}'
  import * as z from '${zodModule}'
  const progress = (ctx) => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: ctx.mcpReq._meta.progressToken, progress: 1 } })
  const factory = () => {
    const server = new McpServer({ name: 'dies', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text: 'echo: ' + text }] }))
    // Opens its answer's event stream with progress, and never answers: the test kills the process.
    server.registerTool('hang', { inputSchema: z.object({}) }, async (_args, ctx) => {
      await progress(ctx)
      return new Promise(() => {})
    })
    // The same, but the HTTP layer below ends the stream cleanly after its first event.
    server.registerTool('cut', { inputSchema: z.object({}) }, async (_args, ctx) => {
      await progress(ctx)
      return new Promise(() => {})
    })
    // Sends progress, then answers when the test says so (a line on stdin).
    server.registerTool('slow', { inputSchema: z.object({}) }, async (_args, ctx) => {
      await progress(ctx)
      process.stdout.write('called slow\\n')
      await new Promise((resolve) => process.stdin.once('data', resolve))
      return { content: [{ type: 'text', text: 'slow done' }] }
    })
    return server
  }
  const handler = createMcpHandler(factory, { legacy: 'reject' })
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const request = new Request('http://127.0.0.1' + req.url, { method: req.method, headers: req.headers, ...(hasBody ? { body: Buffer.concat(chunks) } : {}) })
    const tool = hasBody ? JSON.parse(Buffer.concat(chunks).toString()).params?.name : undefined
    const response = await handler.fetch(request)
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (response.body) for await (const chunk of response.body) {
      // The first event (hang's progress) is on its way before the test kills the process.
      if (tool === 'hang') res.write(chunk, () => process.stdout.write('streaming hang\\n'))
      else res.write(chunk)
      if (tool === 'cut') break
    }
    res.end()
  })
  server.listen(Number(process.argv[1]), '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'))
`

interface ServerProcess {
  child: ChildProcess
  port: number
  /** Resolves when the server prints `line`. */
  printed(line: string): Promise<void>
}

/** The server in a child of its own, on `port` (0: any free one); killed after the test. */
async function startServer(port = 0): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SERVER, String(port)], { stdio: ['pipe', 'pipe', 'inherit'] })
  afterTest(child, (c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL'))
  const lines: string[] = []
  const waiters: Array<() => void> = []
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    lines.push(...text.split('\n').filter(Boolean))
    for (const wake of waiters.splice(0)) wake()
  })
  const printed = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (lines.includes(line) ? resolve() : child.exitCode !== null || child.signalCode !== null ? reject(new Error(`server exited before printing ${line}`)) : waiters.push(check))
      child.once('exit', check)
      check()
    })
  await new Promise<void>((resolve, reject) => {
    const check = () => (lines.some((l) => l.startsWith('port ')) ? resolve() : waiters.push(check))
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)))
    check()
  })
  return { child, port: Number(lines.find((l) => l.startsWith('port '))!.slice(5)), printed }
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

/** A call that waited for it would end TOOL_TIMEOUT; the tests' own limits leave room for that verdict. */
const TOOL_CALL_TIMEOUT_MS = 10_000

const config = (port: number) => ({
  transport: 'streamable-http',
  serverName: 'dies',
  url: `http://127.0.0.1:${port}/mcp`,
  toolCallTimeoutMs: TOOL_CALL_TIMEOUT_MS,
  reconnect: { initialDelayMs: 20, maxDelayMs: 200, maxAttempts: 50 },
})

describe('a modern HTTP server that dies during a call', () => {
  it('fails the call at once as a lost connection, which then comes back', { timeout: 6 * TOOL_CALL_TIMEOUT_MS }, async () => {
    const first = await startServer()
    const host = await startHost()
    const fiber = await host.load(config(first.port))
    expect(await host.tools.execute('mcp__dies__echo', { text: 'before' })).toMatchObject({ content: [{ text: 'echo: before' }] })

    const call = host.tools.execute('mcp__dies__hang', {})
    await first.printed('streaming hang')
    await killed(first.child)
    // Had the call waited for its timeout, it would end TOOL_TIMEOUT: the classification tells, not the clock.
    expect(await call).toMatchObject({
      isError: true,
      error: { code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/hang failed and was not replayed; the connection was lost .*and is being re-established/) },
    })
    await expect.poll(() => host.logs.some((line) => /connection lost/.test(line)), { timeout: 10_000 }).toBe(true)

    await startServer(first.port)
    await expect.poll(() => stateOf(fiber)?.kind, { timeout: 20_000, interval: 20 }).toBe('connected')
    expect(await host.tools.execute('mcp__dies__echo', { text: 'after' })).toMatchObject({ content: [{ text: 'echo: after' }] })
  })

  it('fails a call whose event stream ends without its answer the same way', { timeout: 6 * TOOL_CALL_TIMEOUT_MS }, async () => {
    const server = await startServer()
    const host = await startHost()
    const fiber = await host.load(config(server.port))
    expect(await host.tools.execute('mcp__dies__cut', {})).toMatchObject({
      isError: true,
      error: { code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/cut failed and was not replayed; the connection was lost .*and is being re-established/) },
    })
    await expect.poll(() => stateOf(fiber)?.kind, { timeout: 20_000, interval: 20 }).toBe('connected')
    expect(await host.tools.execute('mcp__dies__echo', { text: 'after' })).toMatchObject({ content: [{ text: 'echo: after' }] })
  })

  it('fails a call the server can no longer be reached for (connection refused) the same way', { timeout: 6 * TOOL_CALL_TIMEOUT_MS }, async () => {
    const first = await startServer()
    const host = await startHost()
    const fiber = await host.load(config(first.port))
    await killed(first.child)
    expect(await host.tools.execute('mcp__dies__echo', { text: 'refused' })).toMatchObject({
      isError: true,
      error: { code: 'SERVER_UNAVAILABLE', message: expect.stringMatching(/echo failed and was not replayed; the connection was lost .*and is being re-established/) },
    })
    await startServer(first.port)
    await expect.poll(() => stateOf(fiber)?.kind, { timeout: 20_000, interval: 20 }).toBe('connected')
    expect(await host.tools.execute('mcp__dies__echo', { text: 'back' })).toMatchObject({ content: [{ text: 'echo: back' }] })
  })

  it('still waits for a call that sends progress and answers later', { timeout: 6 * TOOL_CALL_TIMEOUT_MS }, async () => {
    const server = await startServer()
    const host = await startHost()
    await host.load(config(server.port))
    const call = host.tools.execute('mcp__dies__slow', {})
    await server.printed('called slow')
    server.child.stdin!.write('go\n')
    expect(await call).toMatchObject({ content: [{ text: 'slow done' }] })
    expect(host.logs.join('\n')).not.toMatch(/connection lost/)
  })
})
