import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import { stringify } from 'yaml'
import { afterTest, tempDir } from './support/cleanup.ts'
import { startHost, stateOf, whenTools } from './support/host.ts'
import { serveHttp, type ServeOptions } from './support/http-server.ts'
import { serveOAuth } from './support/oauth-server.ts'

/**
 * Issue 34 item 3: an authorization server that never answers must not outlive the connection
 * that asked it. Every wait of the OAuth flow (metadata, token) ends with the connection's
 * deadline (connectTimeoutMs) or its close, and its socket with it: the server side counts the
 * requests it holds whose socket is still open.
 */
const CONNECT_TIMEOUT_MS = 1_500
const SECRET = 'cs-7c3e9a1f5b0d2486e3f1'

afterEach(() => {
  delete process.env.MCP_TEST_CLIENT_SECRET
})

/** Requests held unanswered: how many ever, and how many still have their socket open. */
class Held {
  total = 0
  open = 0
  hold(res: ServerResponse): void {
    this.total += 1
    this.open += 1
    res.once('close', () => (this.open -= 1))
  }
}

type Silent = 'resource-metadata' | 'server-metadata' | 'token'

/**
 * A protected MCP endpoint and its authorization server on one 127.0.0.1 origin, written out
 * here so that one of its endpoints can stay silent: the 401 challenge (RFC 9728 §5.1), the
 * protected-resource metadata (RFC 9728 §3), the server metadata (RFC 8414 §3), the token endpoint.
 */
async function silentAuthServer(silent: Silent) {
  const held = new Held()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const path = new URL(req.url ?? '/', origin).pathname
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
    req.resume()
    if (path === '/.well-known/oauth-protected-resource/mcp' || path === '/.well-known/oauth-protected-resource') {
      if (silent === 'resource-metadata') return held.hold(res)
      return answer(200, { resource: `${origin}/mcp`, authorization_servers: [origin] })
    }
    if (path === '/.well-known/oauth-authorization-server') {
      if (silent === 'server-metadata') return held.hold(res)
      const endpoints = { authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token` }
      return answer(200, { issuer: origin, ...endpoints, response_types_supported: ['code'], grant_types_supported: ['client_credentials'] })
    }
    if (path === '/token') {
      if (silent === 'token') return held.hold(res)
      return answer(400, { error: 'invalid_request' })
    }
    if (path.startsWith('/.well-known/')) return answer(404, { error: 'not_found' })
    return answer(401, { jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null }, {
      'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return afterTest({ url: `${origin}/mcp`, origin, held }, () => {
    server.closeAllConnections()
    return new Promise((resolve) => server.close(resolve))
  })
}

const grant = (issuer: string) => ({ type: 'client_credentials', clientId: 'bridge', clientSecretEnv: 'MCP_TEST_CLIENT_SECRET', issuer })

describe('a silent authorization server', () => {
  it.each<Silent>(['resource-metadata', 'server-metadata', 'token'])(
    'whose %s endpoint never answers: the attempt fails within connectTimeoutMs and leaves no socket open',
    async (silent) => {
      process.env.MCP_TEST_CLIENT_SECRET = SECRET
      const as = await silentAuthServer(silent)
      const host = await startHost()
      const fiber = await host.load({
        transport: 'streamable-http',
        serverName: 'slow',
        url: as.url,
        auth: grant(as.origin),
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        reconnect: { enabled: false },
      })
      expect(as.held.total).toBe(1)
      expect(stateOf(fiber)?.kind).not.toBe('connected')
      expect(host.logs.join('\n')).toMatch(new RegExp(`connectTimeoutMs \\(${CONNECT_TIMEOUT_MS} ms\\)`))
      await fiber.dispose()
      // Aborting a request closes its socket at once; undici would otherwise hold it for its 300 s header timeout.
      await expect.poll(() => as.held.open, { timeout: 10 * CONNECT_TIMEOUT_MS }).toBe(0)
    },
  )
})

function echoServer() {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' })
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo ${text}` }] }))
  return server
}

describe('a token renewal during a call', () => {
  it('is bounded by connectTimeoutMs when the token endpoint falls silent: the call fails with that reason and the socket closes', async () => {
    process.env.MCP_TEST_CLIENT_SECRET = SECRET
    const held = new Held()
    let silent = false
    // The fixture's authorization server, with its token endpoint falling silent on demand.
    const serve = (factory: () => McpServer | Server, options: ServeOptions) =>
      serveHttp(factory, {
        guard: async (req, res) => {
          if (silent && req.url === '/token') {
            held.hold(res)
            return true
          }
          return options.guard!(req, res)
        },
      })
    const server = await serveOAuth(echoServer, { clientId: 'bridge', clientSecret: SECRET }, serve)
    const host = await startHost()
    // The call's own timeout is far past the renewal's bound: only the renewal's deadline can end it first.
    await host.load({
      transport: 'streamable-http',
      serverName: 'guarded',
      url: server.url,
      auth: grant(server.issuer),
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      toolCallTimeoutMs: 100 * CONNECT_TIMEOUT_MS,
      maxTotalTimeoutMs: 100 * CONNECT_TIMEOUT_MS,
    })
    // Connected first: on a loaded machine the first connect can outlast its own short deadline,
    // and a reconnect then lists the tool; the renewal below is what this test bounds.
    await whenTools(host, (names) => names.includes('mcp__guarded__echo'))
    silent = true
    server.expireAll()
    const result = await host.tools.execute('mcp__guarded__echo', { text: 'late' })
    expect(result).toMatchObject({
      isError: true,
      error: { message: expect.stringContaining(`did not complete the token request within connectTimeoutMs (${CONNECT_TIMEOUT_MS} ms)`) },
    })
    expect(held.total).toBe(1)
    // Without a dispose: the renewal's deadline aborted the request, which closed its socket.
    await expect.poll(() => held.open, { timeout: 10 * CONNECT_TIMEOUT_MS }).toBe(0)
  })
})

describe('mcp-bridge call against a silent authorization server', () => {
  it('prints its verdict and exits soon after, leaving no socket open', async () => {
    const as = await silentAuthServer('token')
    const config = join(tempDir('oauth-slow-'), 'cordis.yml')
    const entry = { serverName: 'slow', transport: 'streamable-http', url: as.url, auth: grant(as.origin), connectTimeoutMs: CONNECT_TIMEOUT_MS, reconnect: { enabled: false } }
    await writeFile(config, stringify([{ id: 'slow', name: '@mcp-bridge/plugin', config: entry }]))
    const bin = fileURLToPath(new URL('../../host/bin/mcp-bridge.js', import.meta.url))
    const child = spawn(process.execPath, [bin, '--config', config, 'call', 'mcp__slow__echo'], {
      env: { ...process.env, MCP_TEST_CLIENT_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    afterTest(child, (running) => running.exitCode === null && running.signalCode === null && running.kill('SIGKILL'))
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.resume()
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    await vi.waitFor(() => expect(stdout).toMatch(/--- error \(UNKNOWN_TOOL\) ---/), { timeout: 20 * CONNECT_TIMEOUT_MS, interval: 20 })
    expect(as.held.total).toBe(1)
    // Past its verdict the CLI has nothing left to do: it ends once its host is disposed. Before
    // the fix, the silent token request kept it alive for undici's 300 s header timeout.
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), 10 * CONNECT_TIMEOUT_MS)))
    try {
      expect(await Promise.race([exited, late])).toBe(1)
    } finally {
      clearTimeout(timer)
    }
    await expect.poll(() => as.held.open, { timeout: 10 * CONNECT_TIMEOUT_MS }).toBe(0)
  })
})
