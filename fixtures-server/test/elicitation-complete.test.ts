import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client'
import { afterAll, describe, expect, it } from 'vitest'
import { startHttpFixture, type BehaviourInput, type WireEntry } from '../src/index.ts'
import { KINDS, liveFixtureChildren, open } from './support/fixtures.ts'

afterAll(() => expect(liveFixtureChildren()).toEqual([]))

// A tool's elicitationComplete (asks-schema.ts): notifications/elicitation/complete for each id, in
// order, before the call's result at a legacy era; none at 2026-07-28, which has no such notification.
const source = (era: 'legacy' | 'modern'): BehaviourInput => ({ era, tools: [{ name: 'connect', elicitationComplete: ['ask-1', 'never-asked', 'ask-1'], result: { content: [{ type: 'text', text: 'connected' }] } }] })
const sent = (wire: WireEntry[]) => wire.filter(({ dir }) => dir === 'send').map(({ msg }) => ('method' in msg ? `${msg.method} ${JSON.stringify(msg.params)}` : 'result' in msg ? 'result' : 'error'))

describe.each(KINDS)('elicitationComplete (%s)', (kind) => {
  it('sends the notifications in order, then the result, to a client that declared URL mode', async () => {
    const fx = await open(kind, source('legacy'), { capabilities: { elicitation: { url: {} } } })
    try {
      await fx.client.callTool({ name: 'connect', arguments: {} })
      // A request after the answer, so that the call's part of the log is complete.
      await fx.client.listTools()
    } finally {
      await fx.close()
    }
    const after = sent(fx.wire()).slice(1, 5)
    expect(after).toEqual([
      'notifications/elicitation/complete {"elicitationId":"ask-1"}',
      'notifications/elicitation/complete {"elicitationId":"never-asked"}',
      'notifications/elicitation/complete {"elicitationId":"ask-1"}',
      'result',
    ])
  })

  it('sends none to a client that declared form mode only, and still answers the call', async () => {
    const fx = await open(kind, source('legacy'), { capabilities: { elicitation: { form: {} } } })
    try {
      expect((await fx.client.callTool({ name: 'connect', arguments: {} })).content).toEqual([{ type: 'text', text: 'connected' }])
      await fx.client.listTools()
    } finally {
      await fx.close()
    }
    expect(sent(fx.wire()).filter((line) => line.startsWith('notifications/'))).toEqual([])
  })
})

describe('elicitationComplete at 2026-07-28', () => {
  it('sends none: the modern call gets its result alone', async () => {
    const http = await startHttpFixture(source('modern'), { memoryWire: true })
    const client = new V2Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
    try {
      await client.connect(new V2Http(new URL(http.url)))
      expect((await client.callTool({ name: 'connect', arguments: {} })).content).toEqual([{ type: 'text', text: 'connected' }])
    } finally {
      await client.close()
      await http.close()
    }
    expect(sent(http.wire!.entries).filter((line) => line.startsWith('notifications/'))).toEqual([])
  })
})
