import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { spawnHttpFixture, startHttpFixture } from '../src/index.ts'
import { expectGone, fixtureStatus, liveFixtureChildren, open, tempDir } from './support/fixtures.ts'

// Every fixture this file started has exited by itself or been closed.
afterAll(() => expect(liveFixtureChildren()).toEqual([]))

const statusTool = { name: 'fixture_status', result: { content: [{ type: 'status' as const }] } }

describe('crashes over HTTP', () => {
  it('in process: a crash closes the listener and settles `exited` with the code', async () => {
    const atStart = await startHttpFixture({ crash: { onStart: true, exitCode: 3 } })
    expect(await atStart.exited).toBe(3)
    await expect(new Client({ name: 't', version: '1' }).connect(new StreamableHTTPClientTransport(new URL(atStart.url)))).rejects.toThrow(/fetch failed/)

    const midCall = await open('http', { tools: [{ name: 'boom', exit: true }], crash: { exitCode: 6 } })
    const call = midCall.client.callTool({ name: 'boom' }, undefined, { timeout: 500 })
    expect(await midCall.http!.exited).toBe(6)
    // The SDK's HTTP client does not notice a response stream cut before any event id: only its
    // request timeout ends the call.
    await expect(call).rejects.toMatchObject({ code: -32001 })
    await midCall.close()
  })

  it('in process: exits after N calls, after K ms, and crash-loops by start count', async () => {
    const afterCalls = await open('http', { tools: [{ name: 'a' }], crash: { afterCalls: 1, exitCode: 5 } })
    expect(await afterCalls.client.callTool({ name: 'a' })).toEqual({ content: [{ type: 'text', text: '{}' }] })
    expect(await afterCalls.http!.exited).toBe(5)
    await afterCalls.close()

    const afterMs = await startHttpFixture({ crash: { afterMs: 20, exitCode: 4 } })
    expect(await afterMs.exited).toBe(4)

    const stateFile = join(tempDir(), 'state.json')
    const loop = { tools: [statusTool], crash: { onStart: true, exitCode: 3, starts: 3 } }
    for (let i = 0; i < 3; i++) expect(await (await startHttpFixture(loop, { stateFile })).exited).toBe(3)
    const healthy = await open('http', loop, { stateFile })
    expect((await fixtureStatus(healthy.client)).start).toBe(4)
    await healthy.close()
  })

  it('in process: hangs on initialize and on tools/list', async () => {
    const init = await open('http', { crash: { hangOn: ['initialize'] } }, { connect: false })
    const transport = new StreamableHTTPClientTransport(new URL(init.http!.url))
    await expect(init.client.connect(transport, { timeout: 300 })).rejects.toMatchObject({ code: -32001 })
    // (The client's cancellation may or may not make it: it closes its transport right after.)
    expect(init.wire()[0]?.msg).toMatchObject({ method: 'initialize' })
    expect(init.wire().filter((entry) => entry.dir === 'send')).toEqual([])
    await init.close()

    const list = await open('http', { tools: [{ name: 'a' }], crash: { hangOn: ['tools/list'] } })
    await expect(list.client.listTools({}, { timeout: 300 })).rejects.toMatchObject({ code: -32001 })
    expect((await list.client.callTool({ name: 'a' })).content).toEqual([{ type: 'text', text: '{}' }])
    await list.close()
  })

  it('as a process: answers the Nth call, then exits with the scripted code', async () => {
    const fixture = await spawnHttpFixture({ tools: [{ name: 'a' }], crash: { afterCalls: 1, exitCode: 5 } })
    const client = new Client({ name: 't', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(fixture.url)))
    expect(await client.callTool({ name: 'a', arguments: { x: 1 } })).toEqual({ content: [{ type: 'text', text: '{"x":1}' }] })
    expect(await fixture.exited).toEqual({ code: 5, signal: null })
    await client.close()
    expectGone(fixture.pid)
  })

  it('as a process: exits at start before announcing readiness', async () => {
    await expect(spawnHttpFixture({ crash: { onStart: true, exitCode: 3 } })).rejects.toThrow(/exited before it was ready \(code 3/)
  })
})
