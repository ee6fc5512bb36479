import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client'
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureCommand, GENERATION_META_KEY, startHttpFixture, type BehaviourInput, type HttpFixture } from '../src/index.ts'
import { liveFixtureChildren, open } from './support/fixtures.ts'

afterAll(() => expect(liveFixtureChildren()).toEqual([]))

/**
 * subscriptions/listen (MCP 2026-07-28 basic/patterns/subscriptions) at the modern and dual eras,
 * through the SDK's v2 client over both transports: the acknowledgment first, then every scripted
 * tool-list change as notifications/tools/list_changed carrying the subscription's ID.
 */
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId'

const behaviour = (era: 'modern' | 'dual'): BehaviourInput => ({
  era,
  tools: [{ name: 'grow' }],
  listChanged: { onTool: 'grow', generation: true, steps: [{ at: 1, add: [{ name: 'late' }] }] },
})

async function connect(kind: 'stdio' | 'http', era: 'modern' | 'dual') {
  const client = new V2Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
  let http: HttpFixture | undefined
  if (kind === 'http') {
    http = await startHttpFixture(behaviour(era), { memoryWire: true })
    await client.connect(new V2Http(new URL(http.url)))
  } else {
    await client.connect(new V2Stdio(fixtureCommand(behaviour(era))))
  }
  const heard: Array<Record<string, unknown> | undefined> = []
  client.setNotificationHandler('notifications/tools/list_changed', (notification) => void heard.push(notification.params as Record<string, unknown> | undefined))
  return { client, http, heard, close: async () => (await client.close(), await http?.close()) }
}

describe.each(['stdio', 'http'] as const)('subscriptions/listen over %s', (kind) => {
  it.each(['modern', 'dual'] as const)('a %s fixture acknowledges, then announces a scripted change on the stream', async (era) => {
    const { client, http, heard, close } = await connect(kind, era)
    try {
      const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true })
      // Only what the fixture honours: prompts are not among it.
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true })
      expect(heard).toEqual([])
      await client.callTool({ name: 'grow', arguments: {} })
      await expect.poll(() => heard.length).toBe(1)
      expect(heard[0]!._meta).toMatchObject({ [SUBSCRIPTION_ID]: expect.stringMatching(/^listen:/), [GENERATION_META_KEY]: 2 })
      expect((await client.listTools({ cursor: undefined }, { cacheMode: 'refresh' })).tools.map((t) => t.name)).toEqual(['grow', 'late'])
      if (http) {
        // The acknowledgment went first on the subscription, and the change after it.
        const sent = http.wire!.entries.filter((e) => e.dir === 'send' && 'method' in e.msg).map((e) => (e.msg as { method: string }).method)
        expect(sent).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed'])
      }
      await subscription.close()
    } finally {
      await close()
    }
  })
})

describe('subscriptions/listen from a legacy session', () => {
  it('is an unknown method to a dual-era fixture spoken to the legacy way', async () => {
    const fx = await open('stdio', behaviour('dual'))
    try {
      await expect(fx.client.request({ method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } } as never, {} as never)).rejects.toThrow(/-32601|Method not found/)
    } finally {
      await fx.close()
    }
  })
})
