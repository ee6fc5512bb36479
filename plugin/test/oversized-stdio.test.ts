import { fixtureCommand } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { pidOf, startHost } from './support/host.ts'
import { ANSWER_ERA_PROBE } from './support/raw-server.ts'

/**
 * A stdio answer above the read limit (limits.maxResultBytes plus 1 MiB of envelope) used to be
 * handled as a lost connection: the child was restarted and every call in flight failed. It is
 * now that call's error, naming the size and the limit; the connection and the other calls in
 * flight carry on.
 */
const MAX_RESULT_BYTES = 1024
const LINE_LIMIT = MAX_RESULT_BYTES + 1024 * 1024

const limited = (extra: Record<string, unknown>) => ({
  transport: 'stdio',
  serverName: 'big',
  killGraceMs: 200,
  limits: { maxResultBytes: MAX_RESULT_BYTES },
  ...extra,
})

describe('an oversized stdio answer fails only its own call', () => {
  it('with calls in flight on both sides of it', async () => {
    const host = await startHost()
    const fiber = await host.load(
      limited({
        ...fixtureCommand({
          tools: [
            { name: 'huge', result: { content: [{ type: 'text', bytes: 3_000_000 }] } },
            { name: 'slow', delayMs: 400 },
            { name: 'echo' },
          ],
        }),
      }),
    )
    const pid = pidOf(fiber)
    const [slow, huge, echo] = await Promise.all([
      host.tools.execute('mcp__big__slow', { n: 1 }),
      host.tools.execute('mcp__big__huge', {}),
      host.tools.execute('mcp__big__echo', { n: 2 }),
    ])
    expect(huge).toMatchObject({ isError: true, error: { code: 'INVALID_RESULT' } })
    const message = huge.isError ? huge.error.message : ''
    const size = Number(/was (\d+) bytes/.exec(message)?.[1])
    expect(size).toBeGreaterThan(3_000_000)
    expect(message).toContain(`above the ${LINE_LIMIT}-byte limit`)
    expect(slow).toMatchObject({ isError: false, content: [{ type: 'text', text: '{"n":1}' }] })
    expect(echo).toMatchObject({ isError: false, content: [{ type: 'text', text: '{"n":2}' }] })
    // The same child, still connected: nothing was restarted.
    expect(await host.tools.execute('mcp__big__echo', { n: 3 })).toMatchObject({ isError: false })
    expect(pidOf(fiber)).toBe(pid)
    expect(host.logs.join('\n')).not.toMatch(/connection lost/)
  })

  it('an oversized line that answers nothing is a warning, and the call it preceded still succeeds', async () => {
    // After tools/call, a 2 MB notification with no id, then the real answer.
    const script = `
      const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
      require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const m = JSON.parse(line)
        ${ANSWER_ERA_PROBE}
        if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'noisy', version: '1' } } })
        if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'noisy', inputSchema: { type: 'object' } }] } })
        if (m.method === 'tools/call') {
          send({ method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(2000000) } })
          send({ id: m.id, result: { content: [{ type: 'text', text: 'fine' }] } })
        }
      })`
    const host = await startHost()
    await host.load(limited({ command: process.execPath, args: ['-e', script] }))
    expect(await host.tools.execute('mcp__big__noisy', {})).toMatchObject({ isError: false, content: [{ type: 'text', text: 'fine' }] })
    // Word for word, from the logger's name on: the notice is the message, not an argument after an empty one.
    expect(host.logs).toContainEqual(
      expect.stringMatching(new RegExp(`^\\[warn\\] [^ ]+: skipped a \\d+-byte "notifications/message" message from the server \\(a notification, or a request whose id could not be read\\): it is above the ${LINE_LIMIT}-byte limit$`)),
    )
    expect(host.logs.join('\n')).not.toMatch(/connection lost/)
  })

  it('an oversized line that answers nothing and names no method is a warning', async () => {
    const script = `
      const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
      require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const m = JSON.parse(line)
        ${ANSWER_ERA_PROBE}
        if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'noisy', version: '1' } } })
        if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'noisy', inputSchema: { type: 'object' } }] } })
        if (m.method === 'tools/call') {
          send({ id: 'nobody', result: { text: 'x'.repeat(2000000) } })
          send({ id: m.id, result: { content: [{ type: 'text', text: 'fine' }] } })
        }
      })`
    const host = await startHost()
    await host.load(limited({ command: process.execPath, args: ['-e', script] }))
    expect(await host.tools.execute('mcp__big__noisy', {})).toMatchObject({ isError: false, content: [{ type: 'text', text: 'fine' }] })
    expect(host.logs).toContainEqual(expect.stringMatching(new RegExp(`^\\[warn\\] [^ ]+: skipped a \\d+-byte line from the server: it is above the ${LINE_LIMIT}-byte limit and answers no request in flight$`)))
  })

  // JSON-RPC ids belong to their sender: the server's request 2 is not the answer to our call 2.
  it.each([
    ['its method and id first', (id: string) => `{ jsonrpc: '2.0', id: ${id}, method: 'sampling/createMessage', params: { maxTokens: 5, messages: [{ role: 'user', content: { type: 'text', text: 'z'.repeat(1500000) } }] } }`],
    ['its method and id last', (id: string) => `{ params: { text: 'z'.repeat(1500000) }, method: 'sampling/createMessage', jsonrpc: '2.0', id: ${id} }`],
  ])('an oversized request of the server with %s fails no call, even with the id of one, and is answered -32600', async (_shape, request) => {
    // On tools/call, a 1.5 MB request with the call's own id, then the answer once its error reply is in.
    const script = `
      const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
      let call
      require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const m = JSON.parse(line)
        ${ANSWER_ERA_PROBE}
        if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'asking', version: '1' } } })
        if (m.method === 'tools/list') send({ id: m.id, result: { tools: [{ name: 'asking', inputSchema: { type: 'object' } }] } })
        if (m.method === 'tools/call') {
          call = m
          process.stdout.write(JSON.stringify(${request('m.id')}) + '\\n')
        }
        if (m.method === undefined && call && m.id === call.id) send({ id: call.id, result: { content: [{ type: 'text', text: 'after ' + JSON.stringify(m.error) }] } })
      })`
    const host = await startHost()
    const fiber = await host.load(limited({ command: process.execPath, args: ['-e', script] }))
    const pid = pidOf(fiber)
    const result = await host.tools.execute('mcp__big__asking', {})
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringMatching(/^after \{"code":-32600,"message":"the request was \d+ bytes, above the client's \d+-byte limit for one message; it was not read"\}$/) }] })
    expect(host.logs).toContainEqual(
      expect.stringMatching(new RegExp(`^\\[warn\\] [^ ]+: skipped a \\d+-byte "sampling/createMessage" request from the server: it is above the ${LINE_LIMIT}-byte limit; answered with error -32600$`)),
    )
    expect(pidOf(fiber)).toBe(pid)
    expect(host.logs.join('\n')).not.toMatch(/connection lost/)
  })
})
