/**
 * A stdio server that dies before it answers: the failure on the terminal names why, from the
 * line of its stderr that says so (the plugin's rule), redacted. Real processes, no mocks.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runServerSuite } from '../src/server/run.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-conformance-exit-reason-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const initialize = async (args: string[]) => {
  const suite = await runServerSuite({ kind: 'stdio', command: process.execPath, args }, { exitGraceMs: 300 })
  return suite.checks.find((c) => c.id === 'lifecycle/initialize')!
}

describe('a stdio server that exits during initialize', () => {
  it("a missing module: the message quotes Node's reason line, not only the exit code", async () => {
    const missing = join(dir, 'missing.js')
    const check = await initialize([missing])
    expect(check.status).toBe('fail')
    expect(check.message).toBe(`initialize got no response: the server process exited (exit code 1); its stderr: ${JSON.stringify(`Error: Cannot find module '${missing}'`)}`)
  })

  it('the reason line is redacted, and a line below it (a stack) does not displace it', async () => {
    const script = join(dir, 'leaky.mjs')
    const secret = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd'
    await writeFile(script, `process.stderr.write('starting\\nError: could not connect with ${secret}\\n' + '    at frame\\n'.repeat(8) + 'Node.js v0\\n', () => process.exit(2))\n`)
    const check = await initialize([script])
    expect(check.message).toMatch(/^initialize got no response: the server process exited \(exit code 2\); its stderr: "Error: could not connect with .*"$/)
    expect(check.message).not.toContain(secret)
  })
})
