import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { ENVELOPE_BYTES } from '../src/json-rpc-message.ts'
import { serveLegacySse } from './support/sse-server.ts'
import { startHost, stateOf } from './support/host.ts'

/** A tool whose answer is `bytes` characters of text: one event on the legacy stream. */
function bigAnswers() {
  const server = new McpServer({ name: 'legacy', version: '1.0.0' })
  server.registerTool('big', { inputSchema: { bytes: z.number() } }, async ({ bytes }) => ({ content: [{ type: 'text', text: 'x'.repeat(bytes) }] }))
  return server
}

describe('legacy HTTP+SSE: an event over limits.maxResultBytes (issue 34, item 8)', () => {
  it('the call and the lost connection both name the limit, as the Streamable HTTP path does; the bridge reconnects', async () => {
    const server = await serveLegacySse(bigAnswers)
    const host = await startHost()
    const fiber = await host.load({ transport: 'sse', serverName: 'legacy', url: server.url, limits: { maxResultBytes: 1024 }, reconnect: { initialDelayMs: 10, maxDelayMs: 20 } })
    // Past the limit and the envelope's room: the reader abandons the event, and with it the stream.
    const result = (await host.tools.execute('mcp__legacy__big', { bytes: 1024 + ENVELOPE_BYTES + 64 * 1024 })) as { isError: boolean; error: { message: string } }
    expect(result.isError).toBe(true)
    expect(result.error.message).toMatch(/the connection was lost \(the event stream failed: .*exceeded limits\.maxResultBytes \(1024 bytes\)/)
    await expect.poll(() => host.logs.join('\n')).toMatch(/connection lost: the event stream failed: .*exceeded limits\.maxResultBytes \(1024 bytes\)/)
    // A new session, and an answer within the limit goes through.
    await expect.poll(() => server.requests.filter((r) => r === 'GET /sse').length).toBe(2)
    await expect.poll(() => stateOf(fiber)?.kind).toBe('connected')
    expect(await host.tools.execute('mcp__legacy__big', { bytes: 10 })).toMatchObject({ isError: false })
  })
})
