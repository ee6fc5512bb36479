import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startHost, whenTools } from './support/host.ts'

/**
 * A modern server (MCP 2026-07-28) has no unsolicited messages outside a subscription: the bridge
 * keeps one open (subscriptions/listen, through the v2 client), so a tool the server adds reaches
 * the host by the same debounced, atomic re-sync as a legacy server's list_changed.
 */
const fixture = fileURLToPath(new URL('./support/v2-server.mjs', import.meta.url))

describe('tool list changes in the modern era', () => {
  it('a tool a modern-only stdio server adds is registered', async () => {
    const host = await startHost()
    await host.load({ transport: 'stdio', serverName: 'twin', command: process.execPath, args: [fixture, 'stdio', 'reject'], connectTimeoutMs: 20_000 })
    expect(host.tools.list().map((t) => t.name)).not.toContain('mcp__twin__late')
    expect(await host.tools.execute('mcp__twin__grow', {})).toMatchObject({ content: [{ text: 'grown' }] })
    await whenTools(host, (names) => names.includes('mcp__twin__late'))
    expect(await host.tools.execute('mcp__twin__late', {})).toMatchObject({ content: [{ text: 'late' }] })
  })
})
