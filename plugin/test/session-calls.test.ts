import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config.ts'
import type { ToolExecution } from '../src/host-contract.ts'
import { redactSecrets } from '@mcp-bridge/process'
import { Session, type SessionHooks } from '../src/session.ts'
import { afterTest } from './support/cleanup.ts'
import { ANSWER_ERA_PROBE } from './support/raw-server.ts'

/**
 * What one tools/call on a Session ends as, told apart the way the host sees it: the server's
 * JSON-RPC error, the call timeout, the caller's abort, the ceiling despite progress, a child that
 * dies mid-call. Real child processes, a line-based MCP server; the server reports each
 * notifications/cancelled it receives on stderr, so the test awaits it instead of sleeping.
 */
const SERVER = `
  const cancelled = []
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
  require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line)
    ${ANSWER_ERA_PROBE}
    if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'calls', version: '1' } } })
    if (m.method === 'notifications/cancelled') {
      cancelled.push(m.params.requestId)
      process.stderr.write('cancelled ' + m.params.requestId + ': ' + m.params.reason + '\\n')
    }
    if (m.method !== 'tools/call') return
    const name = m.params.name
    const token = m.params._meta && m.params._meta.progressToken
    if (name === 'echo') send({ id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(m.params.arguments) }] } })
    if (name === 'fail') send({ id: m.id, error: { code: -32602, message: 'no such argument: x' } })
    if (name === 'big') send({ id: m.id, result: { content: [{ type: 'text', text: 'B'.repeat(m.params.arguments.size) }] } })
    if (name === 'long-error') send({ id: m.id, error: { code: -32603, message: 'E'.repeat(3000) } })
    if (name === 'cancelled') send({ id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(cancelled) }] } })
    if (name === 'progress') {
      // Progress every 50 ms for m.params.arguments.total ms, then the answer.
      let done = 0
      const tick = setInterval(() => {
        done += 50
        if (token !== undefined) send({ method: 'notifications/progress', params: { progressToken: token, progress: done } })
        if (done >= m.params.arguments.total) {
          clearInterval(tick)
          send({ id: m.id, result: { content: [{ type: 'text', text: 'done' }] } })
        }
      }, 50)
    }
    if (name === 'die') {
      process.stderr.write('panic: disk on fire\\n')
      process.exit(7)
    }
    // "hang": never answers.
  })`

function exec(signal: AbortSignal = new AbortController().signal): ToolExecution {
  return { callId: 'c1', name: 'tool', arguments: {}, signal }
}

async function open(extra: Record<string, unknown> = {}) {
  const stderr: string[] = []
  const lost: string[] = []
  const waiters: Array<{ prefix: string; resolve: (line: string) => void }> = []
  const hooks: SessionHooks = {
    onToolListChanged: () => {},
    onLost: (reason) => lost.push(reason),
    onStderrLine: (line) => {
      stderr.push(line)
      for (const waiter of waiters.filter((w) => line.startsWith(w.prefix))) waiter.resolve(line)
    },
    onNotice: () => {},
    onSecretLookingEnv: () => {},
  }
  const config = parseConfig({ transport: 'stdio', serverName: 'calls', command: process.execPath, args: ['-e', SERVER], killGraceMs: 200, ...extra })
  const session = afterTest(await Session.open(config, hooks, AbortSignal.timeout(10_000), redactSecrets), (s) => s.close())
  const line = (prefix: string) => {
    const found = stderr.find((l) => l.startsWith(prefix))
    return found !== undefined ? Promise.resolve(found) : new Promise<string>((resolve) => waiters.push({ prefix, resolve }))
  }
  return { session, stderr, lost, line }
}

describe('Session.callTool: how a call ends', () => {
  it('answers with the result the server sent', async () => {
    const { session } = await open()
    expect(await session.callTool('echo', { a: 1 }, exec())).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] })
  })

  it("the server's JSON-RPC error is TOOL_ERROR, with its code and message; the session stays up", async () => {
    const { session, lost } = await open()
    const error = await session.callTool('fail', {}, exec()).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'BridgeError', code: 'TOOL_ERROR', message: 'fail failed on the server (JSON-RPC error -32602): no such argument: x' })
    // The SDK's error is kept as the cause (without its stack), with its JSON-RPC code.
    expect((error as Error).cause).toMatchObject({ name: 'ProtocolError', message: 'no such argument: x', code: -32602 })
    expect(await session.callTool('echo', {}, exec())).toEqual({ content: [{ type: 'text', text: '{}' }] })
    expect(lost).toEqual([])
  })

  it('no answer within toolCallTimeoutMs is TOOL_TIMEOUT, and the server is sent notifications/cancelled', async () => {
    const { session, line } = await open({ toolCallTimeoutMs: 300 })
    const error = await session.callTool('hang', {}, exec()).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'TOOL_TIMEOUT', message: 'hang did not answer within 300 ms; the server was sent notifications/cancelled' })
    expect((error as Error).cause).toMatchObject({ name: 'SdkError', message: expect.stringMatching(/timed out/i), code: 'REQUEST_TIMEOUT' })
    expect(await line('cancelled ')).toMatch(/^cancelled \d+: .*timed out/i)
  })

  it("the caller's abort is ABORTED, and the server is sent notifications/cancelled with the caller's reason", async () => {
    const { session, line } = await open()
    const caller = new AbortController()
    const pending = session.callTool('hang', {}, exec(caller.signal)).catch((e: unknown) => e)
    caller.abort('the user pressed stop')
    const error = await pending
    expect(error).toMatchObject({ code: 'ABORTED', message: 'call to hang was aborted' })
    expect((error as Error).cause).toMatchObject({ message: 'the user pressed stop' })
    expect(await line('cancelled ')).toMatch(/^cancelled \d+: the user pressed stop$/)
  })

  it('progress pushes the call timeout back (a call three times as long as it ends with its answer)', async () => {
    const { session } = await open({ toolCallTimeoutMs: 250 })
    expect(await session.callTool('progress', { total: 750 }, exec())).toEqual({ content: [{ type: 'text', text: 'done' }] })
  })

  it('progress does not outlast maxTotalTimeoutMs: TOOL_TIMEOUT naming the ceiling, and the server is sent notifications/cancelled with it', async () => {
    const { session, line } = await open({ toolCallTimeoutMs: 250, maxTotalTimeoutMs: 400 })
    const error = await session.callTool('progress', { total: 5_000 }, exec()).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'TOOL_TIMEOUT', message: 'progress exceeded maxTotalTimeoutMs (400 ms) despite progress; the server was sent notifications/cancelled' })
    expect((error as Error).cause).toMatchObject({ message: 'exceeded maxTotalTimeoutMs (400 ms)' })
    expect(await line('cancelled ')).toMatch(/^cancelled \d+: exceeded maxTotalTimeoutMs \(400 ms\)$/)
  })

  it('a child that dies mid-call: the call fails as not replayed, quoting its stderr, and the loss is reported once', async () => {
    const { session, lost } = await open()
    const error = await session.callTool('die', {}, exec()).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'SERVER_UNAVAILABLE',
      message: expect.stringMatching(/^die failed and was not replayed; the connection was lost and is being re-established: Connection closed \(server stderr: panic: disk on fire\)$/),
    })
    // The transport's close is told first, then the call fails: one loss, reported once.
    expect(lost).toEqual(['the connection closed; last stderr lines: panic: disk on fire'])
    expect((error as Error).cause).toMatchObject({ name: 'SdkError', message: 'Connection closed', code: 'CONNECTION_CLOSED' })
  })

  it('an answer over limits.maxResultBytes is INVALID_RESULT, with the reason as its cause; the session stays up', async () => {
    const { session } = await open({ limits: { maxResultBytes: 4096 } })
    // The line limit is maxResultBytes plus a 1 MiB JSON-RPC envelope.
    const error = await session.callTool('big', { size: 1_100_000 }, exec()).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'INVALID_RESULT', message: expect.stringMatching(/^big failed: .*above the 1052672-byte limit/) })
    expect((error as Error).cause).toMatchObject({ code: -32603, message: expect.stringMatching(/1052672-byte limit/) })
    expect(await session.callTool('echo', { a: 1 }, exec())).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] })
  })

  it("a server's error text is quoted up to maxResultTextChars plus a 500-character margin, with a notice of its length", async () => {
    const { session } = await open({ limits: { maxResultTextChars: 50 } })
    const error = await session.callTool('long-error', {}, exec()).catch((e: unknown) => e)
    const said = 'E'.repeat(3000)
    expect(error).toMatchObject({
      code: 'TOOL_ERROR',
      message: `long-error failed on the server (JSON-RPC error -32603): ${said.slice(0, 550)}… [cut: showed 550 of ${said.length} characters]`,
    })
  })

  it("once a call is answered, the caller's signal no longer reaches it: a later abort sends the server no notifications/cancelled", async () => {
    const { session } = await open()
    const caller = new AbortController()
    expect(await session.callTool('echo', {}, exec(caller.signal))).toEqual({ content: [{ type: 'text', text: '{}' }] })
    caller.abort('the turn ended')
    // Requests go out in order: this one reaches the server after any notifications/cancelled the abort sent.
    expect(await session.callTool('cancelled', {}, exec())).toEqual({ content: [{ type: 'text', text: '[]' }] })
  })
})
