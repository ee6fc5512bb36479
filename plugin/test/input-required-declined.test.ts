import { describe, expect, it } from 'vitest'
import { startHost } from './support/host.ts'

/**
 * A modern server (MCP 2026-07-28) asks a client for input by answering tools/call with an
 * `input_required` result, which the client answers on a retry. The bridge declares no
 * elicitation, sampling or roots, so it declines: the call ends at once as a tool error that says
 * why, with no retry and no wait for toolCallTimeoutMs (set far beyond the test's own timeout,
 * so that a call left waiting fails the test). The server is a plain stdio child that speaks
 * only 2026-07-28 and whose ask tool always needs input, whatever the client declared.
 */
const SERVER = `
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
  const meta = { 'io.modelcontextprotocol/serverInfo': { name: 'asker', version: '1' } }
  require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line)
    if (m.id === undefined) return
    process.stderr.write('got ' + m.method + '\\n')
    if (m.method === 'initialize') return send({ id: m.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: m.params.protocolVersion } } })
    if (m.method === 'server/discover') return send({ id: m.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private', _meta: meta } })
    if (m.method === 'tools/list') return send({ id: m.id, result: { resultType: 'complete', tools: [{ name: 'ask', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'private' } })
    if (m.method === 'tools/call') {
      return send({ id: m.id, result: { resultType: 'input_required', requestState: 'round-1', inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form', message: 'Really?', requestedSchema: { type: 'object', properties: {} } } } } } })
    }
    send({ id: m.id, error: { code: -32601, message: 'Method not found' } })
  })`

describe('input_required is declined', () => {
  it('a tool result that asks for input ends the call as a clear tool error, sent once', async () => {
    const host = await startHost()
    await host.load({ transport: 'stdio', serverName: 'asker', command: process.execPath, args: ['-e', SERVER], toolCallTimeoutMs: 600_000, maxTotalTimeoutMs: 600_000 })
    expect(host.tools.list().map((t) => t.name)).toContain('mcp__asker__ask')
    const result = await host.tools.execute('mcp__asker__ask', {})
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'TOOL_ERROR', message: expect.stringMatching(/ask failed: the server asked for input \(an input_required result\), which the bridge cannot give: it declares no elicitation, sampling or roots capability; the call was not retried/) },
    })
    // The child's stderr is read on its own schedule, after the answer on stdout at times: wait
    // for the line, then stop the server, so that a retry's line (written before the answer)
    // would be counted too.
    const calls = () => host.logs.filter((line) => line.includes('got tools/call')).length
    await expect.poll(calls).toBeGreaterThanOrEqual(1)
    await host.dispose()
    expect(calls()).toBe(1)
  })
})
