import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { describe, expect, it } from 'vitest'
import { fixtureCommand, processGroup, readProcLog, readWireFile, spawnHttpFixture } from '../src/index.ts'
import { ChildTransport } from './support/child-transport.ts'
import { tempDir } from './support/fixtures.ts'

describe('a fixture process reports itself in its wire log', () => {
  it('stdio: its pid, group and child as it starts, then each SIGTERM and EOF it gets, ignored or not', async () => {
    const wire = join(tempDir(), 'wire.jsonl')
    const { command, args } = fixtureCommand({ tools: [{ name: 'echo' }], stdio: { ignoreEof: true, ignoreSigterm: true, grandchild: true } })
    const transport = new ChildTransport(command, [...args, '--wire', wire])
    const client = new Client({ name: 'proc-report-test', version: '1.0.0' })
    await client.connect(transport, { timeout: 10_000 })
    const pid = transport.pid
    await expect.poll(() => readProcLog(wire).map((e) => e.event)).toEqual(['start', 'child'])
    const [start, child] = readProcLog(wire)
    expect(start).toEqual({ event: 'start', pid, ppid: process.pid, pgid: processGroup(pid) })
    expect(child).toMatchObject({ event: 'child', pid })
    transport.child.kill('SIGTERM')
    await expect.poll(() => readProcLog(wire).map((e) => e.event)).toEqual(['start', 'child', 'sigterm'])
    transport.child.stdin!.end()
    await expect.poll(() => readProcLog(wire).map((e) => e.event)).toEqual(['start', 'child', 'sigterm', 'eof'])
    // Both ignored: only SIGKILL ends it, and leaves no line.
    transport.child.kill('SIGKILL')
    expect(await transport.exited).toEqual({ code: null, signal: 'SIGKILL' })
    expect(readProcLog(wire).map((e) => e.event)).toEqual(['start', 'child', 'sigterm', 'eof'])
    // The JSON-RPC readers never see the reports.
    expect(readWireFile(wire).every((entry) => entry.dir === 'recv' || entry.dir === 'send')).toBe(true)
  })

  it('HTTP: the fixture process reports its own pid too', async () => {
    const wire = join(tempDir(), 'wire.jsonl')
    const fixture = await spawnHttpFixture({ tools: [{ name: 'echo' }] }, { env: { ...process.env, MCP_FIXTURE_WIRE: wire } })
    try {
      expect(readProcLog(wire)).toEqual([expect.objectContaining({ event: 'start', pid: fixture.pid })])
    } finally {
      await fixture.close()
    }
  })
})
