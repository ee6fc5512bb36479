import { PingRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, describe, expect, it } from 'vitest'
import type { WireEntry } from '../src/index.ts'
import { KINDS, liveFixtureChildren, open } from './support/fixtures.ts'

afterAll(() => expect(liveFixtureChildren()).toEqual([]))

const summary = (wire: WireEntry[]) => wire.map(({ dir, msg }) => `${dir} ${'method' in msg ? msg.method : 'result' in msg ? 'result' : 'error'}`)

describe.each(KINDS)('ping (%s)', (kind) => {
  it('asks the client once the given call was answered, and logs the answer', async () => {
    const fx = await open(kind, { tools: [{ name: 'echo' }], ping: { afterCalls: 1 } })
    const pinged = new Promise<void>((resolve) => fx.client.setRequestHandler(PingRequestSchema, () => (resolve(), {})))
    await fx.client.callTool({ name: 'echo', arguments: {} })
    await pinged
    // A request after the answer, so that the answer has reached the fixture when it closes.
    await fx.client.listTools()
    await fx.close()
    const wire = fx.wire()
    // The ping comes right after the call's answer: a fixed place in the wire.
    expect(summary(wire).slice(0, summary(wire).indexOf('send ping') + 1).slice(-3)).toEqual(['recv tools/call', 'send result', 'send ping'])
    const ping = wire.find(({ dir, msg }) => dir === 'send' && 'method' in msg && msg.method === 'ping')!.msg as { id: unknown }
    // Answers only: the client's own requests have ids of their own, which may be the same number.
    const answers = wire.filter(({ dir, msg }) => dir === 'recv' && !('method' in msg) && 'id' in msg && msg.id === ping.id)
    expect(answers.map(({ msg }) => msg)).toEqual([{ jsonrpc: '2.0', id: ping.id, result: {} }])
  })
})
