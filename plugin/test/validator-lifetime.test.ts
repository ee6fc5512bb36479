import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SchemaCompiler } from '@mcp-bridge/process'
import { startHost } from './support/host.ts'

describe('validators belong to their generation', () => {
  it('two schemas with the same $id compile independently, each with its own rules', () => {
    const compiler = new SchemaCompiler()
    const a = compiler.compile({ $id: 'https://example.com/args.json', type: 'object', required: ['a'] })
    const b = compiler.compile({ $id: 'https://example.com/args.json', type: 'object', required: ['b'] })
    expect(a.ok && b.ok).toBe(true)
    if (!a.ok || !b.ok) return
    expect(a.validate({ b: 1 })).toEqual(["(root) must have required property 'a'"])
    expect(b.validate({ a: 1 })).toEqual(["(root) must have required property 'b'"])
  })

  it('a tool whose schema cannot compile is refused with a reason and one warning, never run unchecked', async () => {
    const host = await startHost()
    let ran = false
    const broken = { type: 'object', properties: { q: { type: 'string', pattern: '(' } } }
    host.ctx.tools.register({ name: 'broken', description: '', parameters: broken, execute: async () => (ran = true) })
    for (let i = 0; i < 2; i++) {
      const result = await host.tools.execute('broken', { q: 'x' })
      expect(result).toMatchObject({ isError: true, error: { code: 'INVALID_ARGS', message: expect.stringMatching(/^"broken" cannot be called: its parameters schema does not compile \(/) } })
    }
    expect(ran).toBe(false)
    expect(host.logs.filter((line) => line.includes('"broken": its parameters schema does not compile'))).toHaveLength(1)
  })

  it('a tool whose inputSchema is not JSON Schema is not registered, and the log says why', async () => {
    const { fixtureCommand } = await import('@mcp-bridge/fixtures-server')
    const host = await startHost()
    const server = fixtureCommand({ tools: [{ name: 'good' }, { name: 'bad', inputSchema: { type: 'object', properties: { q: { type: 'strnig' } } } }] })
    await host.load({ transport: 'stdio', serverName: 'schemas', ...server })
    expect(host.tools.list().map((tool) => tool.name)).toEqual(['mcp__schemas__good'])
    expect(host.logs.join('\n')).toMatch(/tool "bad" not registered: inputSchema is not valid JSON Schema: inputSchema\/properties\/q\/type must be equal to one of the allowed values/)
  })

  it('100 re-syncs of 1,000 tools: the heap after GC ends within 5 MB of where it started', () => {
    const script = fileURLToPath(new URL('./support/resync-heap.mjs', import.meta.url))
    const run = spawnSync(process.execPath, ['--expose-gc', script, '100', '1000'], { encoding: 'utf8', timeout: 170_000 })
    expect(run.status, run.stderr).toBe(0)
    const { start, end, calls } = JSON.parse(run.stdout) as { start: number; end: number; calls: number; ms: number }
    expect(calls).toBe((5 + 100) * 40)
    const grown = (end - start) / 1024 / 1024
    expect(grown, `heap after GC grew by ${grown.toFixed(2)} MB`).toBeLessThan(5)
  }, 180_000)
})
