import type { IncomingMessage, ServerResponse } from 'node:http'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { parseConfig } from '../src/config.ts'
import { redactSecrets } from '@mcp-bridge/process'
import { Session, type SessionHooks } from '../src/session.ts'
import { afterTest } from './support/cleanup.ts'
import { serveHttp } from './support/http-server.ts'

/**
 * What an HTTP status the server answers a POST with becomes, on one Session over Streamable HTTP:
 * during initialize (a refusal of the credentials, a legacy-only server, a server error) and on a
 * call (refused credentials, a server error). Each outcome is pinned whole: its code, the status in
 * the message, and the hint where there is one.
 */
function endpoint() {
  /** The status every POST is answered with while set (initialize and calls alike), as text/plain. */
  let status: number | undefined
  const server = serveHttp(
    () => {
      const mcp = new McpServer({ name: 'status', version: '1' })
      mcp.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }))
      return mcp
    },
    {
      guard: async (req: IncomingMessage, res: ServerResponse) => {
        if (req.method !== 'POST' || status === undefined) return false
        req.resume()
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`)
        return true
      },
    },
  )
  return { server, answer: (code: number | undefined) => (status = code) }
}

const hooks: SessionHooks = { onToolListChanged: () => {}, onLost: () => {}, onStderrLine: () => {}, onNotice: () => {}, onSecretLookingEnv: () => {} }
const exec = () => ({ callId: 'c', name: 'echo', arguments: {}, signal: new AbortController().signal })

async function open(url: string) {
  const config = parseConfig({ transport: 'streamable-http', serverName: 'status', url })
  const session = await Session.open(config, hooks, AbortSignal.timeout(10_000), redactSecrets)
  return afterTest(session, (s) => s.close())
}

async function failedOpen(url: string): Promise<unknown> {
  const config = parseConfig({ transport: 'streamable-http', serverName: 'status', url })
  return Session.open(config, hooks, AbortSignal.timeout(10_000), redactSecrets).then(
    (session) => afterTest(session, (s) => s.close()),
    (error: unknown) => error,
  )
}

describe('HTTP statuses on initialize', () => {
  it('401 and 403 are UNAUTHORIZED, with the status and no legacy hint', async () => {
    const { server, answer } = endpoint()
    const { url } = await server
    for (const status of [401, 403]) {
      answer(status)
      expect(await failedOpen(url)).toMatchObject({
        name: 'BridgeError',
        code: 'UNAUTHORIZED',
        // The first request is the server/discover probe: its refusal ends the connection.
        message: expect.stringMatching(new RegExp(`^server/discover failed \\(HTTP ${status}\\): Version negotiation failed: .*\\(HTTP ${status}\\)$`)),
      })
    }
  })

  it('another 4xx (what a legacy-only server answers) adds the hint to set sseFallback', async () => {
    const { server, answer } = endpoint()
    const { url } = await server
    answer(405)
    expect(await failedOpen(url)).toMatchObject({
      code: 'SERVER_UNAVAILABLE',
      message:
        'initialize failed (HTTP 405): Error POSTing to endpoint: status 405; if the server speaks only the older HTTP+SSE transport (MCP 2024-11-05), set sseFallback: true or transport: sse',
    })
  })

  it('a 500 is SERVER_UNAVAILABLE with the status, and no hint', async () => {
    const { server, answer } = endpoint()
    const { url } = await server
    answer(500)
    expect(await failedOpen(url)).toMatchObject({ code: 'SERVER_UNAVAILABLE', message: 'server/discover failed (HTTP 500): Version negotiation failed: the server answered the probe with HTTP 500' })
  })
})

describe('HTTP statuses on a call', () => {
  it('403 is UNAUTHORIZED: the call was refused, check the headers or auth', async () => {
    const { server, answer } = endpoint()
    const session = await open((await server).url)
    answer(403)
    const error = await session.callTool('echo', { message: 'x' }, exec()).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: 'echo was refused by the server (HTTP 403): check the configured headers or auth' })
    expect((error as Error).cause).toMatchObject({ status: 403 })
  })

  it('a 500 fails that call with the status (not as a JSON-RPC error of the server); the session stays', async () => {
    const { server, answer } = endpoint()
    const session = await open((await server).url)
    answer(500)
    const error = await session.callTool('echo', { message: 'x' }, exec()).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'SERVER_UNAVAILABLE', message: 'echo failed (HTTP 500): Error POSTing to endpoint: status 500' })
    answer(undefined)
    expect(await session.callTool('echo', { message: 'y' }, exec())).toMatchObject({ content: [{ type: 'text', text: 'Echo: y' }] })
  })

  it('a 200 that is neither JSON nor an SSE stream fails that call with no HTTP status in the message', async () => {
    const { server, answer } = endpoint()
    const session = await open((await server).url)
    answer(200)
    const error = await session.callTool('echo', { message: 'x' }, exec()).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'SERVER_UNAVAILABLE', message: 'echo failed: Unexpected content type: text/plain' })
  })
})
