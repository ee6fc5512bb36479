/**
 * Hostile servers that cost the kit work or memory without end: a huge tools/list, a flood of
 * notifications, an event-stream line that never ends. Real processes (a raw stdio script) and
 * the real parser; the assertions are on work counts and on what is kept, not on wall-clock
 * thresholds, except one generous bound that the old code missed by more than ten times.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runServerSuite } from '../src/server/run.ts'
import { compileSchema, engineStats } from '../src/server/schema.ts'
import { judgeTools, MAX_SCHEMAS_JUDGED } from '../src/server/evaluate/tools.ts'
import { KEEP_PER_CLASS, MAX_KEPT } from '../src/server/wire/ledger.ts'
import { MAX_SSE_LINE_CHARS, SseParser } from '../src/server/wire/sse.ts'
import { StdioWire } from '../src/server/wire/stdio.ts'

/** A raw stdio server: `bigtools` lists TOOLS_N tools; `flood` sends FLOOD_N log notifications (no logging capability) and some progress, then answers. */
const SERVER = String.raw`
const modes = new Set((process.argv[2] ?? '').split(','))
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n')
let buf = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); if (line.trim()) handle(JSON.parse(line)) } })
process.stdin.on('end', () => process.exit(0))
function handle(m) {
  if (m.id === undefined) return
  const r = (result) => out({ jsonrpc: '2.0', id: m.id, result })
  switch (m.method) {
    case 'initialize': return r({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } })
    case 'ping': return r({})
    case 'tools/list': {
      const n = Number(process.env.TOOLS_N ?? 1)
      // Distinct schemas, so no cache could hide the work.
      return r({ tools: Array.from({ length: n }, (_, i) => ({ name: 'tool_' + i, description: 'tool ' + i, inputSchema: { type: 'object', properties: { ['a' + i]: { type: 'string', maxLength: i + 1 } } } })) })
    }
    case 'tools/call': {
      if (modes.has('flood')) {
        const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(2000) } }) + '\n'
        const n = Number(process.env.FLOOD_N ?? 0)
        let chunk = ''
        for (let i = 0; i < n; i++) { chunk += note; if (chunk.length > 1e6) { process.stdout.write(chunk); chunk = '' } }
        process.stdout.write(chunk)
        const token = m.params?._meta?.progressToken
        // Progress goes 1, 2, then back to 1: the order breach arrives after the flood.
        if (token !== undefined) for (const p of [1, 2, 1]) out({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: p } })
      }
      return r({ content: [{ type: 'text', text: 'ok' }] })
    }
    default: return out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } })
  }
}
`

let dir: string
let script: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-limits-'))
  script = join(dir, 'server.mjs')
  await writeFile(script, SERVER)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('a huge tools/list', () => {
  it('builds one engine per dialect, however many schemas it compiles', () => {
    // The old code built an engine (and compiled its meta-schema, ~30 ms) for every schema.
    compileSchema({ type: 'object' }, '2025-06-18')
    const before = engineStats.built
    for (let i = 0; i < 300; i++) {
      const compiled = compileSchema({ type: 'object', properties: { [`p${i}`]: { type: 'integer', minimum: i } } }, '2025-06-18')
      expect(compiled.ok).toBe(true)
    }
    expect(engineStats.built).toBe(before)
  })

  it('a reused engine keeps no schema: the same $id in two schemas, and a schema claiming the meta-schema id, judge as alone', () => {
    const a = compileSchema({ $id: 'https://example.com/s', type: 'object', properties: { x: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'number' } } }, '2025-11-25')
    const b = compileSchema({ $id: 'https://example.com/s', type: 'object', properties: { x: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'string' } } }, '2025-11-25')
    expect(a.ok === true && a.validate({ x: 'text' }).length).toBeGreaterThan(0)
    expect(b.ok === true && b.validate({ x: 'text' })).toEqual([])
    compileSchema({ $id: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }, '2025-11-25')
    expect(compileSchema({ type: 'object', properties: { x: { type: 7 } } }, '2025-11-25').ok).toBe(false)
  })

  it(`compiles the first ${MAX_SCHEMAS_JUDGED} schemas and says the rest were not compiled, never that they are valid`, () => {
    const tools = Array.from({ length: MAX_SCHEMAS_JUDGED + 1500 }, (_, i) => ({ name: `t${i}`, description: 'd', inputSchema: { type: 'object', properties: { [`a${i}`]: { type: 'string' } } } }))
    // One broken schema beyond the limit cannot be found; one within it is.
    tools[5]!.inputSchema = { type: 'object', properties: { a: { type: 'nope' } } } as never
    const check = judgeTools(tools, '2025-11-25', {}).find((c) => c.id === 'tools/input-schema')!
    expect(check.status).toBe('fail')
    expect(check.message).toContain(`the 1500 inputSchemas after the first ${MAX_SCHEMAS_JUDGED} were not compiled against their dialect (the kit's limit)`)
    expect(check.details).toMatchObject({ notCompiled: 1500, compileLimit: MAX_SCHEMAS_JUDGED })
  })

  // The old code built an engine (and compiled its meta-schema, ~12 ms) per schema: 50,000 tools
  // took over ten minutes. Counted, not timed: the engines built must not grow with the tools.
  it('50,000 tools: the run ends with a verdict, building one engine per dialect, not one per schema', async () => {
    const enginesBefore = engineStats.built
    const suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [script], env: { TOOLS_N: '50000' } }, { requestTimeoutMs: 60_000 })
    expect(suite.checks.find((c) => c.id === 'tools/list')?.status).toBe('pass')
    const schemas = suite.checks.find((c) => c.id === 'tools/input-schema')!
    expect(schemas.status).toBe('pass')
    expect(schemas.message).toContain(`the 49000 inputSchemas after the first ${MAX_SCHEMAS_JUDGED} were not compiled`)
    expect(engineStats.built - enginesBefore).toBeLessThanOrEqual(2)
  }, 120_000)
})

describe('a flood of notifications', () => {
  it('every one is judged on arrival, a few are kept, and progress order after the flood is still judged', async () => {
    const n = 20_000
    const wires: StdioWire[] = []
    const start = StdioWire.start
    // Keep a handle on the wires the run opens, to look at what they kept.
    StdioWire.start = async (...args: Parameters<typeof start>) => {
      const wire = await start.apply(StdioWire, args)
      if (wire instanceof StdioWire) wires.push(wire)
      return wire
    }
    let suite
    try {
      suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args: [script, 'flood'], env: { FLOOD_N: String(n) } }, { calls: [{ name: 'tool_0', arguments: {} }], requestTimeoutMs: 30_000 })
    } finally {
      StdioWire.start = start
    }
    const byId = Object.fromEntries(suite.checks.map((c) => [c.id, c]))
    const main = wires[0]!
    // Every tools/call floods (the --call, the invalid-arguments probe, the unknown tool).
    const sent = main.ledger.tally('notifications/message')
    expect(sent % n === 0 && sent >= n).toBe(true)
    expect(byId['lifecycle/server-notifications']?.status).toBe('fail')
    expect(byId['lifecycle/server-notifications']?.message).toContain(`notifications/message without the logging capability (${sent} such notifications in all)`)
    expect(byId['notifications/message']?.message).toContain(`${sent} notifications/message notifications`)
    expect(byId['notifications/progress']).toMatchObject({ status: 'fail' })
    expect(byId['notifications/progress']?.message).toContain('went from 2 to 1')
    // The old ledger kept all of them, and every pending request's wire a copy of each.
    expect(main.ledger.notifications.length).toBeLessThanOrEqual(Math.min(MAX_KEPT, 2 * KEEP_PER_CLASS * 2))
    for (const check of suite.checks) expect((check.wire ?? []).length).toBeLessThan(200)
  }, 120_000)
})

describe('an event-stream line that never ends', () => {
  it('each character is scanned once, so the work grows linearly', () => {
    const parser = new SseParser()
    const chunk = 'q'.repeat(1 << 16)
    parser.push('data: {"x":"')
    for (let i = 0; i < 64; i++) parser.push(chunk)
    // The old parser rescanned the whole unfinished line on every chunk: 64 chunks, ~2 M characters times 32.
    expect(parser.charsScanned).toBe(12 + 64 * (1 << 16))
  })

  it('a line longer than the cap is discarded and counted; the stream reads on', () => {
    const parser = new SseParser()
    const chunk = 'q'.repeat(1 << 20)
    parser.push('data: ')
    for (let i = 0; i <= MAX_SSE_LINE_CHARS / (1 << 20); i++) parser.push(chunk)
    expect(parser.overlongLines).toBe(1)
    expect(parser.push('more\r')).toEqual([])
    expect(parser.push('\ndata: {"ok":1}\r\n\r\n')).toEqual([{ event: 'message', data: '{"ok":1}' }])
  })

  it('CRLF split across chunks is one line break', () => {
    const parser = new SseParser()
    expect(parser.push('data: a\r')).toEqual([])
    expect(parser.push('\n\r')).toEqual([{ event: 'message', data: 'a' }])
    expect(parser.push('\ndata: b\n\n')).toEqual([{ event: 'message', data: 'b' }])
  })
})
