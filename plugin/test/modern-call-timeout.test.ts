import { describe, expect, it } from 'vitest'
import { startHost } from './support/host.ts'

/**
 * A call to a modern server (MCP 2026-07-28, on the v2 client) ends at toolCallTimeoutMs as a call
 * to a legacy one does: TOOL_TIMEOUT, in the same words, and the server is sent
 * notifications/cancelled. The v2 client's own timeout error is told apart like the v1 client's
 * (modern-errors.ts, request-failure.ts). The server is a plain stdio child that speaks only
 * 2026-07-28 and never answers a call.
 */
const SERVER = `
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
  require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line)
    process.stderr.write('got ' + m.method + '\\n')
    if (m.id === undefined) return
    if (m.method === 'initialize') return send({ id: m.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: m.params.protocolVersion } } })
    if (m.method === 'server/discover') return send({ id: m.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private' } })
    if (m.method === 'tools/list') return send({ id: m.id, result: { resultType: 'complete', tools: [{ name: 'slow', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'private' } })
    if (m.method !== 'tools/call') send({ id: m.id, error: { code: -32601, message: 'Method not found' } })
  })`

describe('a modern call that does not answer', () => {
  it('ends at toolCallTimeoutMs as TOOL_TIMEOUT and the server is sent notifications/cancelled', async () => {
    const host = await startHost()
    await host.load({ transport: 'stdio', serverName: 'slow', command: process.execPath, args: ['-e', SERVER], toolCallTimeoutMs: 300 })
    expect(await host.tools.execute('mcp__slow__slow', {})).toMatchObject({
      isError: true,
      error: { code: 'TOOL_TIMEOUT', message: expect.stringMatching(/slow did not answer within 300 ms; the server was sent notifications\/cancelled/) },
    })
    await expect.poll(() => host.logs.some((line) => line.includes('got notifications/cancelled')), { timeout: 10_000 }).toBe(true)
  })
})
