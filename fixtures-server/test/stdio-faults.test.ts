import { once } from 'node:events'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { describe, expect, it } from 'vitest'
import { fixtureCommand, type BehaviourInput } from '../src/index.ts'
import { isRunning } from '../../test/support/process-tree.ts'
import { ChildTransport } from './support/child-transport.ts'

/** A stdio fixture under our own spawn: its exit, stdout and stderr stay visible. */
async function connected(behaviour: BehaviourInput) {
  const { command, args } = fixtureCommand(behaviour)
  const transport = new ChildTransport(command, args)
  const client = new Client({ name: 'stdio-faults-test', version: '1.0.0' })
  await client.connect(transport, { timeout: 10_000 })
  return { transport, client }
}

const stderrSays = (transport: ChildTransport, text: string) => expect.poll(() => transport.stderr, { timeout: 10_000 }).toContain(text)

describe('stdio faults', () => {
  it('fault: exit dies right after the initialize answer, with crash.exitCode', async () => {
    const { transport } = await connected({ stdio: { fault: 'exit' }, crash: { exitCode: 6 } })
    expect(await transport.exited).toEqual({ code: 6, signal: null })
  })

  it('fault: stop-reading answers tools/list, then reads nothing more (and so never sees EOF)', async () => {
    const { transport, client } = await connected({ tools: [{ name: 'echo' }], stdio: { fault: 'stop-reading', after: 'tools/list' } })
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo'])
    await stderrSays(transport, 'no longer reading stdin')
    await expect(client.callTool({ name: 'echo', arguments: {} }, undefined, { timeout: 300 })).rejects.toThrow(/timed out/)
    transport.child.stdin!.end()
    const exit = await Promise.race([transport.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 500))])
    expect(exit).toBe('still running')
    transport.child.kill('SIGKILL')
    await transport.exited
  })

  it('fault: close-stdout ends stdout after the answer while the process lives on', async () => {
    const { transport } = await connected({ stdio: { fault: 'close-stdout' } })
    await once(transport.child.stdout!, 'end')
    await stderrSays(transport, 'stdout closed, still running')
    expect(transport.child.exitCode).toBeNull()
    // EOF still ends it: closing stdout is its only fault.
    transport.child.stdin!.end()
    expect(await transport.exited).toEqual({ code: 0, signal: null })
  })

  it('fault: flood-stdout sends one line without end', async () => {
    const { transport } = await connected({ tools: [{ name: 'echo' }], stdio: { fault: 'flood-stdout' } })
    let bytes = 0
    let newlines = -1
    await new Promise<void>((resolve) => {
      transport.child.stdout!.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        newlines += chunk.includes(10) ? 1 : 0
        if (bytes > 4 * 1024 * 1024) resolve()
      })
    })
    expect(newlines).toBeLessThanOrEqual(0)
    transport.child.kill('SIGKILL')
    await transport.exited
  })

  it('ignoreEof and ignoreSigterm: only SIGKILL ends it; floodStderr never stops; grandchild announces itself', async () => {
    const { transport } = await connected({ stdio: { ignoreEof: true, ignoreSigterm: true, floodStderr: true, grandchild: true } })
    const grandchild = Number(/grandchild (\d+)/.exec(transport.stderr)?.[1])
    expect(grandchild).toBeGreaterThan(0)
    transport.child.stdin!.end()
    transport.child.kill('SIGTERM')
    await stderrSays(transport, 'ignoring SIGTERM')
    const before = transport.stderr.length
    await expect.poll(() => transport.stderr.length).toBeGreaterThan(before + 100_000)
    expect(transport.child.exitCode).toBeNull()
    transport.child.kill('SIGKILL')
    expect(await transport.exited).toEqual({ code: null, signal: 'SIGKILL' })
    // Without outliveParent the grandchild ends with the fixture (it polls its ppid).
    await expect.poll(() => isRunning(grandchild), { timeout: 2_000 }).toBe(false)
  })
})
