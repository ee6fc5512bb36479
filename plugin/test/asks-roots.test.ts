import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config.ts'
import { pidOf, startHost, type TestHost } from './support/host.ts'

/**
 * Roots from the configuration, answered to a legacy `roots/list` request and to a 2026-07-28
 * input request alike, declared only when configured, and announced with
 * notifications/roots/list_changed when an update changes them (without a restart).
 */
const SERVER = fileURLToPath(new URL('./support/asks-server.mjs', import.meta.url))
const ROOTS = [{ uri: 'file:///home/me/project', name: 'project' }, { uri: 'file:///tmp/scratch' }]

/** A 2026-07-28 stdio server whose roots tool asks for roots whatever the client declared. */
const RUDE = `
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
  require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
    const m = JSON.parse(line)
    if (m.id === undefined) return
    if (m.method === 'initialize') return send({ id: m.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: m.params.protocolVersion } } })
    if (m.method === 'server/discover') return send({ id: m.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'rude', version: '1' } } } })
    if (m.method === 'tools/list') return send({ id: m.id, result: { resultType: 'complete', tools: [{ name: 'roots', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'private' } })
    if (m.method === 'tools/call') return send({ id: m.id, result: { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } } })
    send({ id: m.id, error: { code: -32601, message: 'Method not found' } })
  })`

const config = (era: 'legacy' | 'modern', extra: Record<string, unknown> = {}) => ({ transport: 'stdio', serverName: 'asks', command: process.execPath, args: [SERVER, era], ...extra })

async function roots(host: TestHost): Promise<unknown> {
  const result = await host.tools.execute('mcp__asks__roots', {})
  if (result.isError) throw new Error(result.error.message)
  return JSON.parse((result.content[0] as { text: string }).text)
}

describe('roots', () => {
  it('a legacy server lists the configured roots, and an update of them is announced in place', async () => {
    const host = await startHost()
    const fiber = await host.load(config('legacy', { roots: ROOTS }))
    await expect.poll(() => host.logs.find((line) => line.includes('caps {'))).toMatch(/caps \{"roots":\{"listChanged":true\}\}$/)
    expect(await roots(host)).toEqual({ roots: ROOTS })
    const pid = pidOf(fiber)
    const changed = [{ uri: 'file:///srv/data' }]
    await fiber.update({ ...config('legacy'), roots: changed })
    await expect.poll(() => host.logs.filter((line) => line.includes('roots changed')).length).toBe(1)
    expect(pidOf(fiber)).toBe(pid)
    expect(await roots(host)).toEqual({ roots: changed })
  })

  it('a 2026-07-28 server gets them as the answer to its input request', async () => {
    const host = await startHost()
    await host.load(config('modern', { roots: ROOTS }))
    expect(await roots(host)).toMatchObject({ answer: { roots: ROOTS }, state: 'state-of-roots' })
  })

  it('without roots none are declared: a legacy server asking anyway gets -32601', async () => {
    const host = await startHost()
    await host.load(config('legacy'))
    await expect.poll(() => host.logs.find((line) => line.includes('caps {'))).toMatch(/caps \{\}$/)
    expect(await roots(host)).toEqual({ error: expect.stringMatching(/-32601|does not support roots/i) })
  })

  it('without roots, a 2026-07-28 ask for them ends the call at once with a clear tool error, even when elicitation is offered', async () => {
    const host = await startHost()
    host.ctx.provide('mcpElicitation')
    host.ctx.set('mcpElicitation', { elicit: async () => ({ action: 'decline' as const }) })
    // The SDK server refuses to ask for what the client did not declare: this one asks regardless.
    await host.load({ transport: 'stdio', serverName: 'asks', command: process.execPath, args: ['-e', RUDE], toolCallTimeoutMs: 600_000, maxTotalTimeoutMs: 600_000 })
    const result = await host.tools.execute('mcp__asks__roots', {})
    expect(result).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: expect.stringMatching(/roots failed: the server asked for input \(roots\/list in an input_required result\) that the bridge does not offer on this connection; the call was not retried$/) } })
  })

  it('a root that is not a file:// URI is refused at load with one line naming it', () => {
    expect(() => parseConfig(config('legacy', { roots: [{ uri: 'file:///ok' }, { uri: 'https://example.com/repo' }] }))).toThrow(
      /^mcp-client config: roots\[1\]\.uri must be an absolute file:\/\/ URI \(for example "file:\/\/\/home\/me\/project"\)\.$/,
    )
  })
})
