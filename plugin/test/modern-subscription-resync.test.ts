import { fixtureCommand, startHttpFixture, type BehaviourInput } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { afterTest } from './support/cleanup.ts'
import { startHost, whenTools, type TestHost } from './support/host.ts'

/**
 * At MCP 2026-07-28 a tool-list change reaches the bridge only through the subscriptions/listen
 * stream it keeps open (a modern server sends nothing unsolicited), and it re-syncs exactly as on
 * a legacy list_changed: the new generation replaces the old one whole, and a listing that breaks
 * the protocol leaves the previous generation in place. Against our fixture at the modern era,
 * which serves the subscription and plays a scripted change after a call of `grow`.
 */
const fixture = (steps: NonNullable<BehaviourInput['listChanged']>['steps']): BehaviourInput => ({
  era: 'modern',
  tools: [{ name: 'grow' }, { name: 'keep' }, { name: 'old' }],
  listChanged: { onTool: 'grow', steps },
})

async function load(kind: 'stdio' | 'http', behaviour: BehaviourInput): Promise<{ host: TestHost; listens: () => number }> {
  const host = await startHost()
  if (kind === 'stdio') {
    await host.load({ transport: 'stdio', serverName: 'fx', ...fixtureCommand(behaviour), connectTimeoutMs: 20_000 })
    return { host, listens: () => Number.NaN }
  }
  const http = afterTest(await startHttpFixture(behaviour, { memoryWire: true }), (f) => f.close())
  await host.load({ transport: 'streamable-http', serverName: 'fx', url: http.url, connectTimeoutMs: 20_000 })
  const listens = () => http.wire!.entries.filter((e) => e.dir === 'recv' && 'method' in e.msg && e.msg.method === 'subscriptions/listen').length
  return { host, listens }
}

const names = (host: TestHost) => host.tools.list().map((t) => t.name)

describe.each(['stdio', 'http'] as const)('a modern server’s tool-list change over %s', (kind) => {
  it('arrives through the subscription and swaps the whole generation at once', async () => {
    const { host, listens } = await load(kind, fixture([{ at: 1, add: [{ name: 'late' }], remove: ['old'] }]))
    expect(names(host)).toEqual(['mcp__fx__grow', 'mcp__fx__keep', 'mcp__fx__old'])
    if (kind === 'http') expect(listens()).toBe(1)
    expect(await host.tools.execute('mcp__fx__grow', {})).toMatchObject({ content: [{ type: 'text' }] })
    // The first list that has `late` has lost `old`: never a mix of two generations.
    const after = await whenTools(host, (n) => n.includes('mcp__fx__late'))
    expect(after).toEqual(['mcp__fx__grow', 'mcp__fx__keep', 'mcp__fx__late'])
    expect(await host.tools.execute('mcp__fx__late', { x: 1 })).toMatchObject({ content: [{ type: 'text', text: '{"x":1}' }] })
  })

  it('keeps the previous generation when the new listing breaks the protocol', async () => {
    const { host } = await load(kind, fixture([{ at: 1, add: [{ name: 'keep' }, { name: 'late' }] }]))
    await host.tools.execute('mcp__fx__grow', {})
    await expect.poll(() => host.logs.join('\n')).toMatch(/tool re-sync failed, keeping the previous tools: .*"keep" more than once/)
    expect(names(host)).toEqual(['mcp__fx__grow', 'mcp__fx__keep', 'mcp__fx__old'])
  })
})
