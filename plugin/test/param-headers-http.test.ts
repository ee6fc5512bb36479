import { describe, expect, it } from 'vitest'
import { afterTest } from './support/cleanup.ts'
import { startHost } from './support/host.ts'
import { startParamHeaderServer } from './support/param-header-server.mjs'

/**
 * SEP-2243 over Streamable HTTP at MCP 2026-07-28, against the SDK v2 server, which refuses a
 * tools/call whose Mcp-Param-* headers disagree with its body (-32020 HeaderMismatch): the bridge
 * mirrors every x-mcp-header parameter, encoded, and excludes the tool whose annotation is invalid,
 * saying so in one line per sync.
 */
async function load() {
  const server = afterTest(await startParamHeaderServer(), (s) => s.close())
  const host = await startHost()
  await host.load({ transport: 'streamable-http', serverName: 'hdr', url: server.url, connectTimeoutMs: 20_000 })
  return { server, host }
}

const excludedLines = (logs: string[]) => logs.filter((line) => /x-mcp-header is invalid/.test(line))

describe('custom headers from tool parameters (2026-07-28, Streamable HTTP)', () => {
  it('mirrors each annotated parameter into its Mcp-Param header, encoded, and the server accepts the call', async () => {
    const { server, host } = await load()
    const args = { region: 'us-west1', priority: 42, verbose: false, greeting: 'Hello, 世界', opts: { zone: ' padded ' }, query: 'SELECT 1' }
    const result = await host.tools.execute('mcp__hdr__route', args)
    expect(result).toMatchObject({ content: [{ type: 'text', text: JSON.stringify(args) }] })
    expect(server.calls).toEqual([
      {
        'mcp-param-region': 'us-west1',
        'mcp-param-priority': '42',
        'mcp-param-verbose': 'false',
        'mcp-param-greeting': '=?base64?SGVsbG8sIOS4lueVjA==?=',
        'mcp-param-zone': '=?base64?IHBhZGRlZCA=?=',
      },
    ])
    // Absent parameters have no header; a tool without annotations gets none.
    expect(await host.tools.execute('mcp__hdr__route', { region: 'eu', query: 'q' })).toMatchObject({ content: [{ type: 'text' }] })
    expect(await host.tools.execute('mcp__hdr__plain', { text: 'x' })).toMatchObject({ content: [{ type: 'text' }] })
    expect(server.calls.slice(1)).toEqual([{ 'mcp-param-region': 'eu' }, {}])
  })

  it('excludes the tool whose x-mcp-header is invalid, keeps the others, and says so once per sync', async () => {
    const { host } = await load()
    expect(host.tools.list().map((t) => t.name).sort()).toEqual(['mcp__hdr__plain', 'mcp__hdr__route'])
    const lines = excludedLines(host.logs)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/1 tool\(s\) not registered: .*"score": x-mcp-header on parameter "score", whose type is "number"/)
  })
})
