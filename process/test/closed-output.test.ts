import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const bin = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

/**
 * Each bin run with its stdout already closed by the reader, as `| head -0` leaves it: every write
 * fails with EPIPE. Without a listener Node turned the first one into a crash (a stack trace, exit
 * code 1) some of the time, depending on when the reader went.
 */
describe('a bin whose reader has closed its output ends as it would have', () => {
  it.each([
    ['mcp-conformance list', bin('conformance/bin/mcp-conformance.js'), ['list']],
    ['mcp-fixture --help', bin('fixtures-server/bin/mcp-fixture.js'), ['--help']],
    ['mcp-bridge --help', bin('host/bin/mcp-bridge.js'), ['--help']],
  ])('%s: exit 0, nothing on stderr', async (_, path, args) => {
    const child = spawn(process.execPath, [path, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })
})
