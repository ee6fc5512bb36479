import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureCommand, readWireFile, wire, type BehaviourInput } from '../src/index.ts'
import { ChildTransport } from './support/child-transport.ts'
import { example, expectGone, fixtureStatus, liveFixtureChildren, tempDir } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

/** A stdio fixture under our own spawn, so its exit code is visible. */
function stdio(behaviour: string | BehaviourInput, env: Record<string, string> = {}) {
  const { command, args } = fixtureCommand(behaviour)
  const transport = new ChildTransport(command, args, { ...process.env, ...env })
  const client = new Client({ name: 'crash-test', version: '1.0.0' })
  return { transport, client, connect: () => client.connect(transport, { timeout: 10_000 }) }
}

describe('crashes over stdio', () => {
  it('exits at start with the scripted code, before reading anything, on every start', async () => {
    // Without `starts`, counting starts never stops the crash: the eleventh start dies too.
    const stateFile = join(tempDir(), 'state.json')
    writeFileSync(stateFile, '{"starts":10}')
    const { transport } = stdio({ crash: { onStart: true, exitCode: 3, stateFile } })
    expect(await transport.exited).toEqual({ code: 3, signal: null })
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toEqual({ starts: 11 })
  })

  it('exits after K ms, client or not', async () => {
    const { transport } = stdio({ tools: [{ name: 'a' }], crash: { afterMs: 50, exitCode: 4 } })
    expect(await transport.exited).toEqual({ code: 4, signal: null })
  })

  it('exits after N answered calls, the last answer delivered first', async () => {
    const { transport, client, connect } = stdio({ tools: [{ name: 'a' }], crash: { afterCalls: 2, exitCode: 5 } })
    await connect()
    const closed = new Promise<void>((resolve) => (client.onclose = resolve))
    expect(await client.callTool({ name: 'a', arguments: { n: 1 } })).toEqual({ content: [{ type: 'text', text: '{"n":1}' }] })
    expect(await client.callTool({ name: 'a', arguments: { n: 2 } })).toEqual({ content: [{ type: 'text', text: '{"n":2}' }] })
    expect(await transport.exited).toEqual({ code: 5, signal: null })
    await closed
  })

  it('dies in the middle of a call', async () => {
    const { transport, client, connect } = stdio({ tools: [{ name: 'boom', exit: 9 }] })
    await connect()
    await expect(client.callTool({ name: 'boom' })).rejects.toMatchObject({ code: -32000 })
    expect(await transport.exited).toEqual({ code: 9, signal: null })
  })

  it('crash-loops on the first 3 starts, then stays up (starts counted in the state file)', async () => {
    // Starts 1 and 2 are the in-process HTTP test's business; here the boundary: 3 dies, 4 lives.
    const state = join(tempDir(), 'state.json')
    writeFileSync(state, '{"starts":2}')
    expect(await stdio(example('crash-loop.yaml'), { MCP_FIXTURE_STATE: state }).transport.exited).toEqual({ code: 3, signal: null })
    const healthy = stdio(example('crash-loop.yaml'), { MCP_FIXTURE_STATE: state })
    await healthy.connect()
    expect((await fixtureStatus(healthy.client)).start).toBe(4)
    await healthy.transport.close()
    expect(await healthy.transport.exited).toEqual({ code: 0, signal: null })
  })

  it('hangs on initialize, and on tools/list while still answering calls', async () => {
    const dir = tempDir()
    const init = stdio({ crash: { hangOn: ['initialize'] } }, { MCP_FIXTURE_WIRE: join(dir, 'init.jsonl') })
    await expect(init.client.connect(init.transport, { timeout: 300 })).rejects.toMatchObject({ code: -32001 })
    await init.transport.close()
    // The initialize request, then the client's cancellation when it gave up: no answer.
    expect(readWireFile(join(dir, 'init.jsonl')).map((entry) => [entry.dir, 'method' in entry.msg && entry.msg.method])).toEqual([
      ['recv', 'initialize'],
      ['recv', 'notifications/cancelled'],
    ])

    const list = stdio({ tools: [{ name: 'a' }], crash: { hangOn: ['tools/list'] } })
    await list.connect()
    await expect(list.client.listTools({}, { timeout: 300 })).rejects.toMatchObject({ code: -32001 })
    expect(await list.client.callTool({ name: 'a' })).toEqual({ content: [{ type: 'text', text: '{}' }] })
    await list.transport.close()
    for (const { transport } of [init, list]) expectGone(transport.pid)
  })
})

describe('wire predicates', () => {
  it('find requests, notifications and responses', () => {
    const entries = [
      { dir: 'recv', msg: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      { dir: 'send', msg: { jsonrpc: '2.0', id: 1, result: {} } },
      { dir: 'recv', msg: { jsonrpc: '2.0', method: 'notifications/cancelled' } },
    ] as const
    expect(entries.findIndex(wire.request('tools/list'))).toBe(0)
    expect(entries.findIndex(wire.response(1))).toBe(1)
    expect(entries.findIndex(wire.notification('notifications/cancelled'))).toBe(2)
  })
})
