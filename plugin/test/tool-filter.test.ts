import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config.ts'
import { publicToolName } from '../src/index.ts'
import { matchesGlob } from '@mcp-bridge/process'
import { filterTools } from '../src/tool-filter.ts'
import { serveHttp } from './support/http-server.ts'
import { startHost, whenTools } from './support/host.ts'
import { changingListServer } from './support/scripted-server.ts'

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } })
const names = (listed: unknown[]) => listed.map((t) => (t as { name: string }).name)

describe('filterTools (pure)', () => {
  const listed = ['read_file', 'read_dir', 'write_file', 'delete_file', 'Read_Secret', 'a.b'].map(tool)

  it('keeps everything when neither list is set', () => {
    expect(filterTools(listed, { include: [], exclude: [] })).toEqual({ kept: listed, unmatched: [] })
  })

  it('include keeps only matches; exclude wins over include; matching is case-sensitive', () => {
    const { kept, unmatched } = filterTools(listed, { include: ['read_*', 'write_file'], exclude: ['read_dir'] })
    expect(names(kept)).toEqual(['read_file', 'write_file'])
    expect(unmatched).toEqual([])
  })

  it('exclude alone drops matches and keeps the rest in server order', () => {
    expect(names(filterTools(listed, { include: [], exclude: ['*_file'] }).kept)).toEqual(['read_dir', 'Read_Secret', 'a.b'])
  })

  it('reports every entry that matched no listed tool, from either list', () => {
    const { unmatched } = filterTools(listed, { include: ['read_*', 'raed_file'], exclude: ['nothing*', 'a.b'] })
    expect(unmatched).toEqual([
      { field: 'include', entry: 'raed_file' },
      { field: 'exclude', entry: 'nothing*' },
    ])
  })

  it('treats every character but * literally', () => {
    expect(matchesGlob('a.b', 'axb')).toBe(false)
    expect(matchesGlob('a.b', 'a.b')).toBe(true)
    expect(matchesGlob('(x)+', '(x)+')).toBe(true)
    expect(matchesGlob('re*d', 'red')).toBe(true)
    expect(matchesGlob('read', 'Read')).toBe(false)
    expect(matchesGlob('*', '')).toBe(true)
    expect(matchesGlob('a*b*c', 'aXbYbc')).toBe(true)
    expect(matchesGlob('a*b*c', 'aXbYb')).toBe(false)
    expect(matchesGlob('**x', 'yx')).toBe(true)
  })

  it('matches a many-star glob against a hostile 1,024-character name in linear time (no backtracking blow-up)', () => {
    // A backtracking RegExp for *a*a*a*a*b needs about n^4 steps here, far beyond the test's
    // timeout; the linear matcher answers at once, so no clock is needed to tell them apart.
    const name = 'a'.repeat(1_024)
    expect(filterTools([tool(name)], { include: ['*a*a*a*a*b'], exclude: [] }).kept).toEqual([])
    expect(matchesGlob('*a*a*a*a*b', `${name}b`)).toBe(true)
  })

  it('leaves a name over 1,024 characters to discovery, which quarantines it', () => {
    const long = tool('x'.repeat(1_025))
    expect(filterTools([long], { include: ['y'], exclude: [] }).kept).toEqual([long])
  })

  it('leaves nameless entries to discovery, which quarantines them with their own reason', () => {
    const broken = { inputSchema: { type: 'object' } }
    expect(filterTools([broken, tool('x')], { include: ['y'], exclude: [] }).kept).toEqual([broken])
  })
})

describe('tools.include / tools.exclude in the config', () => {
  const base = { transport: 'stdio', serverName: 'fs', command: 'node' }

  it('default to empty lists', () => {
    expect(parseConfig(base).tools).toEqual({ include: [], exclude: [] })
  })

  it('refuse an empty entry in one line that names it', () => {
    expect(() => parseConfig({ ...base, tools: { include: ['read_*', ''] } })).toThrow(
      /^mcp-client config: tools\.include\[1\] must be a raw tool name or a \* glob of 1-256 characters \(for example "read_\*"\)\.$/,
    )
  })

  it('suggest the right key for a typo inside tools', () => {
    expect(() => parseConfig({ ...base, tools: { exlude: ['x'] } })).toThrow(/unknown key "tools\.exlude": did you mean "tools\.exclude"\?/)
  })
})

describe('a filtered server, end to end', () => {
  it('registers only what the filter lets through, under the names an unfiltered bridge gives them', async () => {
    const scripted = changingListServer(() => ['read_file', 'read_dir', 'write_file', 'admin.reset'].map(tool))
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'fs', url: server.url, tools: { include: ['read_*', 'admin.*'], exclude: ['read_dir'] } })
    expect(host.tools.list().map((t) => t.name)).toEqual([publicToolName('fs', 'admin.reset'), publicToolName('fs', 'read_file')].sort())

    const excluded = await host.tools.execute(publicToolName('fs', 'read_dir'), {})
    expect(excluded).toMatchObject({ isError: true, error: { code: 'UNKNOWN_TOOL' } })
    expect(await host.tools.execute(publicToolName('fs', 'read_file'), {})).toMatchObject({ content: [{ text: 'called read_file' }] })
    expect(server.received.filter((m) => m.method === 'tools/call').map((m) => m.params?.name)).toEqual(['read_file'])
  })

  it('warns once about an entry that matches nothing, and again only when that changes', async () => {
    let tools = ['alpha', 'beta'].map(tool)
    const scripted = changingListServer(() => tools)
    const server = await serveHttp(scripted.factory)
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'web', url: server.url, tools: { exclude: ['gamma'] } })
    const warnings = () => host.logs.filter((line) => line.includes('tools.exclude entry "gamma" matches none of the tools server "web" lists'))
    expect(warnings()).toHaveLength(1)

    tools = ['alpha', 'beta', 'delta'].map(tool)
    await scripted.notify()
    await whenTools(host, (n) => n.includes('mcp__web__delta'))
    expect(warnings()).toHaveLength(1)

    tools = ['alpha', 'gamma'].map(tool)
    await scripted.notify()
    await whenTools(host, (n) => !n.includes('mcp__web__delta'))
    expect(host.tools.list().map((t) => t.name)).toEqual(['mcp__web__alpha'])

    tools = ['alpha', 'epsilon'].map(tool)
    await scripted.notify()
    await whenTools(host, (n) => n.includes('mcp__web__epsilon'))
    expect(warnings()).toHaveLength(2)
  })
})
