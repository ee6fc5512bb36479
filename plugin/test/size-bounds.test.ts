import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { fixtureCommand, spawnHttpFixture, startHttpFixture } from '@mcp-bridge/fixtures-server'
import { describe, expect, it } from 'vitest'
import { ENVELOPE_BYTES } from '../src/json-rpc-message.ts'
import { afterTest } from './support/cleanup.ts'
import { startHost } from './support/host.ts'

const MiB = 1024 * 1024

describe('error results obey the result limits', () => {
  it('a 10 MiB isError text reaches the model cut to limits.maxResultTextChars, with a notice', async () => {
    const { command, args } = fixtureCommand({
      tools: [{ name: 'fail_loudly', result: { isError: true, content: [{ type: 'text', bytes: 10 * MiB }] } }],
    })
    const host = await startHost()
    await host.load({ transport: 'stdio', serverName: 'loud', command, args })
    const result = await host.tools.execute('mcp__loud__fail_loudly', {})
    expect(result).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR' } })
    const message = result.isError ? result.error.message : ''
    expect(message).toMatch(/… \[cut: showed 100000 of 10485760 characters\]$/)
    expect(message.length).toBeLessThan(100_200)
    expect(result.content.map((block) => (block.type === 'text' ? block.text.length : 0))[0]).toBeLessThan(100_300)
  })

  it('an isError result over limits.maxResultBytes is refused like any result', async () => {
    const { command, args } = fixtureCommand({
      tools: [{ name: 'fail_huge', result: { isError: true, content: [{ type: 'text', bytes: 1.5 * MiB }] } }],
    })
    const host = await startHost()
    await host.load({ transport: 'stdio', serverName: 'huge', command, args, limits: { maxResultBytes: MiB } })
    const result = await host.tools.execute('mcp__huge__fail_huge', {})
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'INVALID_RESULT', message: expect.stringMatching(/returned an error result of \d+ bytes, over limits\.maxResultBytes \(1048576\)$/) },
    })
  })

  it('an HTTP error body is read only as far as it can be quoted, and quoted cut with a notice', async () => {
    const fixture = await startHttpFixture({
      tools: [{ name: 'echo' }],
      http: { faults: [{ method: 'tools/call', action: 'fail', status: 500, body: `${'e'.repeat(5 * MiB)} token=deadbeef-canary` }] },
    })
    afterTest(fixture, (f) => f.close())
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'body', url: fixture.url, limits: { maxResultTextChars: 1000 } })
    const result = await host.tools.execute('mcp__body__echo', {})
    const message = result.isError ? result.error.message : ''
    expect(message).toMatch(/HTTP 500/)
    expect(message).toMatch(/… \[cut: showed 1000 of more than \d+ characters\]$/)
    expect(message.length).toBeLessThan(2_000)
    expect(message).not.toContain('deadbeef-canary')
  })
})

describe('an HTTP answer larger than limits.maxResultBytes is abandoned as it streams in', () => {
  const hostScript = fileURLToPath(new URL('./support/flood-host.mjs', import.meta.url))
  const limit = 8 * MiB
  const flood = 400 * MiB

  /** Runs a host in its own process against the flooding fixture, so what it holds is the bridge's alone. */
  async function callInOwnProcess(url: string, tool: string) {
    const child = spawn(process.execPath, ['--expose-gc', hostScript, url, String(limit), tool], { stdio: ['ignore', 'pipe', 'inherit'] })
    afterTest(child, (c) => c.kill('SIGKILL'))
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    await new Promise((resolve) => child.once('exit', resolve))
    return JSON.parse(out) as { heldGrown: number; rssGrown: number; isError: boolean; code?: string; message?: string }
  }

  it.each(['json', 'sse'] as const)('an answer under the limit as %s passes whole', async (as) => {
    const fixture = await startHttpFixture({ tools: [{ name: 'big' }], http: { faults: [{ tool: 'big', action: 'flood', bytes: 4 * MiB, as }] } })
    afterTest(fixture, (f) => f.close())
    const host = await startHost()
    await host.load({ transport: 'streamable-http', serverName: 'under', url: fixture.url, limits: { maxResultBytes: limit, maxResultTextChars: 10 * MiB } })
    const result = await host.tools.execute('mcp__under__big', {})
    expect(result.isError).toBe(false)
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^x{4194304}$/) })
  })

  // Issue 14 asks for host memory under 3 x maxResultBytes plus a fixed base. What the host holds
  // peaked 24.3-26.1 MiB over an 8 MiB limit in 30 runs (6.6 over 2 MiB, 45 over 32 MiB): the
  // limit's bytes plus the envelope's, with undici's copy of each chunk still awaiting collection.
  // Peak RSS wandered from 0 to 46 MiB at every limit (allocator timing), so it is bounded only
  // against holding the flood: without the limit it grew by 354 MiB.
  it.each(['json', 'sse'] as const)('400 MiB as %s: the call fails INVALID_RESULT, reading no more than the limit, and the host holds less than 3 x the limit + 16 MiB', async (as) => {
    const fixture = await spawnHttpFixture({
      tools: [{ name: 'small' }, { name: 'flood' }],
      http: { faults: [{ tool: 'flood', action: 'flood', bytes: flood, as }] },
    })
    afterTest(fixture, (f) => f.close())
    const outcome = await callInOwnProcess(fixture.url, 'flood')
    expect(outcome).toMatchObject({ isError: true, code: 'INVALID_RESULT', message: expect.stringMatching(/exceeded limits\.maxResultBytes \(8388608 bytes\); it was abandoned after \d+ bytes/) })
    const read = Number(/abandoned after (\d+) bytes/.exec(outcome.message ?? '')?.[1])
    // One chunk past the limit and its envelope is read before the count is over; a chunk is at most 64 KiB.
    expect(read).toBeGreaterThan(limit + ENVELOPE_BYTES)
    expect(read).toBeLessThanOrEqual(limit + ENVELOPE_BYTES + 64 * 1024)
    expect(outcome.heldGrown, `the host's heap and buffers grew by ${(outcome.heldGrown / MiB).toFixed(1)} MiB`).toBeLessThan(3 * limit + 16 * MiB)
    expect(outcome.rssGrown, `peak RSS grew by ${(outcome.rssGrown / MiB).toFixed(1)} MiB`).toBeLessThan(flood / 4)
  }, 60_000)
})
