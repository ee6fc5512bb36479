import { fixtureCommand, type BehaviourInput } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { isAlive, pidOf, startHost, stateOf } from './support/host.ts'
import { ANSWER_ERA_PROBE } from './support/raw-server.ts'

/**
 * Servers that misbehave with their pipes rather than their messages. Whatever the child does,
 * every step ends within the time configured for it: connect within connectTimeoutMs, a call
 * within toolCallTimeoutMs, dispose within the kill grace clock (EOF, SIGTERM, SIGKILL).
 */
const GRACE_MS = 300
const CALL_MS = 500
/**
 * The connect is every test's precondition here, not what it proves (the close-stdout test proves
 * its own bound): at 1.5 s, children that flooded a pipe or ignored EOF missed it while three other
 * test files ran beside this one on two cores.
 */
const CONNECT_MS = 15_000
/** Scheduling slack on two shared cores; the bounds under test are the configured times above. */
const SLACK_MS = 1_000

const tools = [{ name: 'echo' }]
const load = (behaviour: BehaviourInput, maxAttempts = 1) => ({
  transport: 'stdio',
  serverName: 'faulty',
  ...fixtureCommand(behaviour),
  killGraceMs: GRACE_MS,
  toolCallTimeoutMs: CALL_MS,
  connectTimeoutMs: CONNECT_MS,
  reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts },
})

async function timed<T>(task: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await task
  return { value, ms: performance.now() - started }
}

describe('pipe faults: every wait is bounded by its configured time', () => {
  it('a server that stops reading stdin: a call too large for the pipe times out, and dispose escalates on the grace clock', async () => {
    const host = await startHost()
    const fiber = await host.load(load({ tools, stdio: { fault: 'stop-reading', after: 'tools/list' } }))
    expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__faulty__echo'])
    const pid = pidOf(fiber)
    // 4 MB of arguments cannot fit in a pipe nobody reads: the write blocks for good.
    const call = await timed(host.tools.execute('mcp__faulty__echo', { text: 'x'.repeat(4_000_000) }))
    expect(call.value).toMatchObject({ isError: true, error: { code: 'TOOL_TIMEOUT' } })
    expect(call.ms).toBeLessThan(CALL_MS + SLACK_MS)
    // A second call while the first write still waits: it fails or times out, never hangs.
    const second = await timed(host.tools.execute('mcp__faulty__echo', { text: 'small' }))
    expect(second.value).toMatchObject({ isError: true })
    expect(second.ms).toBeLessThan(CALL_MS + SLACK_MS)
    // It reads nothing, so EOF is not seen: SIGTERM after one grace period ends it.
    const dispose = await timed(fiber.dispose())
    expect(dispose.ms).toBeGreaterThanOrEqual(GRACE_MS - 20)
    expect(dispose.ms).toBeLessThan(GRACE_MS + SLACK_MS)
    expect(isAlive(pid)).toBe(false)
  })

  it('a server that closes stdout but lives: the attempt fails at once (not at connectTimeoutMs) and the child is stopped', async () => {
    const host = await startHost()
    // A connect timeout far above a loaded machine's spawn time: failing "at once" must not be
    // mistaken for failing at the timeout (at 1.5 s, spawning alone took 1.6 s under load once).
    const connectTimeoutMs = 10_000
    const activation = await timed(host.load({ ...load({ tools, stdio: { fault: 'close-stdout' } }), connectTimeoutMs }))
    expect(activation.ms).toBeLessThan(connectTimeoutMs)
    expect(host.logs.join('\n')).toMatch(/connection (attempt failed|lost)/)
    await expect.poll(() => stateOf(activation.value)?.kind, { timeout: CONNECT_MS + SLACK_MS }).toBe('stopped')
    expect(host.logs.join('\n')).toMatch(/stderr: \[mcp-fixture\] stdout closed, still running/)
    expect((await timed(activation.value.dispose())).ms).toBeLessThan(GRACE_MS + SLACK_MS)
  })

  it('a server that sends one endless line: calls time out, memory is not the limit, dispose is bounded', async () => {
    const host = await startHost()
    const fiber = await host.load(load({ tools, stdio: { fault: 'flood-stdout', after: 'tools/list' } }))
    const pid = pidOf(fiber)
    const call = await timed(host.tools.execute('mcp__faulty__echo', { text: 'hello' }))
    expect(call.value).toMatchObject({ isError: true, error: { code: 'TOOL_TIMEOUT' } })
    expect(call.ms).toBeLessThan(CALL_MS + SLACK_MS)
    expect(stateOf(fiber)?.kind).toBe('connected')
    expect((await timed(fiber.dispose())).ms).toBeLessThan(2 * GRACE_MS + SLACK_MS)
    expect(isAlive(pid)).toBe(false)
  })

  it('a server that floods stderr: connect, calls and dispose all complete', async () => {
    const host = await startHost()
    // The call must complete, not beat a short timeout: with two mutation runs on the two cores, a
    // flooding child once took longer than 500 ms to answer.
    const toolCallTimeoutMs = 10_000
    const fiber = await host.load({ ...load({ tools, stdio: { floodStderr: true } }), toolCallTimeoutMs })
    expect(stateOf(fiber)?.kind).toBe('connected')
    const call = await timed(host.tools.execute('mcp__faulty__echo', { text: 'through the noise' }))
    expect(call.value).toMatchObject({ isError: false, content: [{ type: 'text', text: '{"text":"through the noise"}' }] })
    expect(call.ms).toBeLessThan(toolCallTimeoutMs)
    expect((await timed(fiber.dispose())).ms).toBeLessThan(GRACE_MS + SLACK_MS)
  })

  it('a server that ignores EOF and SIGTERM: dispose takes two grace periods, then SIGKILL', async () => {
    const host = await startHost()
    const fiber = await host.load(load({ tools, stdio: { ignoreEof: true, ignoreSigterm: true } }))
    const pid = pidOf(fiber)
    const dispose = await timed(fiber.dispose())
    expect(dispose.ms).toBeGreaterThanOrEqual(2 * GRACE_MS - 20)
    expect(dispose.ms).toBeLessThan(2 * GRACE_MS + SLACK_MS)
    expect(isAlive(pid)).toBe(false)
    expect(host.logs.join('\n')).toMatch(/ignoring SIGTERM/)
  })
})

/**
 * JSON-RPC 2.0: a request that is not valid gets -32600 Invalid Request, under its id when that is
 * usable and null otherwise. The SDK refuses such lines silently, and the server would wait for an
 * answer forever.
 */
describe('malformed requests of a stdio server', () => {
  it('are answered -32600 (id null when it is not usable), logged once, and the call goes on', async () => {
    // On tools/call: four requests the SDK refuses, then the answer, once four error replies are in.
    const script = `
      const out = (line) => process.stdout.write(line + '\\n')
      const send = (m) => out(JSON.stringify({ jsonrpc: '2.0', ...m }))
      let call
      const replies = []
      require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const m = JSON.parse(line)
        ${ANSWER_ERA_PROBE}
        if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'odd', version: '1' } } })
        if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'odd', inputSchema: { type: 'object' } }] } })
        if (m.method === 'tools/call') {
          call = m
          out('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}')
          send({ id: 1.5, method: 'ping' })
          send({ id: null, method: 'ping' })
          send({ id: 'listed', method: 'ping', params: [1, 2] })
        }
        if (m.method === undefined && m.error) {
          replies.push({ id: m.id, code: m.error.code })
          if (replies.length === 4) send({ id: call.id, result: { content: [{ type: 'text', text: JSON.stringify(replies) }] } })
        }
      })`
    const host = await startHost()
    await host.load({ transport: 'stdio', serverName: 'odd', command: process.execPath, args: ['-e', script], killGraceMs: GRACE_MS, toolCallTimeoutMs: 10_000 })
    const result = await host.tools.execute('mcp__odd__odd', {})
    expect(result).toMatchObject({ isError: false })
    const text = result.isError ? '' : (result.content[0] as { text: string }).text
    expect(JSON.parse(text)).toEqual([
      { id: null, code: -32600 },
      { id: null, code: -32600 },
      { id: null, code: -32600 },
      { id: 'listed', code: -32600 },
    ])
    // Bounded: the 1st, 10th, 100th, … such request is logged, not each of them.
    const logged = host.logs.filter((line) => line.includes('answered a request from the server that is not valid JSON-RPC with -32600'))
    expect(logged).toEqual([expect.stringMatching(/: its id \(9007199254740992\) is not a string or an integer within 2\^53$/)])
    expect(host.logs.join('\n')).not.toMatch(/connection lost/)
  })
})
