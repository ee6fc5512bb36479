import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { McpSamplingService, SamplingReply, SamplingRequest } from '../src/index.ts'
import { publicToolName } from '../src/naming.ts'
import { startHost, type TestHost } from './support/host.ts'
import { serveHttp } from './support/http-server.ts'
import { afterTest } from './support/cleanup.ts'
import { legacyFactory, modernFactory, SECRET } from './support/sampling-server.mjs'
// @ts-expect-error -- a plain .mjs helper without declarations
import { listenFetch } from './support/fetch-listener.mjs'
import { createMcpHandler } from '@modelcontextprotocol/server'

/**
 * Sampling through the host's `mcpSampling` service, both ways a server asks (a legacy server
 * request on the v1 SDK, an input request of a 2026-07-28 input_required result on the v2 SDK),
 * over stdio (a real child) and Streamable HTTP (a real socket on 127.0.0.1). The server is
 * support/sampling-server.mjs: its tools return what the bridge answered, or its error.
 */
const SERVER = fileURLToPath(new URL('./support/sampling-server.mjs', import.meta.url))
type Era = 'legacy' | 'modern'

interface Provided {
  asked: SamplingRequest[]
  approvals: SamplingRequest[]
}

function provide(host: TestHost, answer: (request: SamplingRequest) => Promise<SamplingReply> | SamplingReply, approve?: (request: SamplingRequest) => boolean | Promise<boolean>): Provided {
  const provided: Provided = { asked: [], approvals: [] }
  const service: McpSamplingService = {
    createMessage: async (request) => (provided.asked.push(request), answer(request)),
    ...(approve && { approve: async (request: SamplingRequest) => (provided.approvals.push(request), approve(request)) }),
  }
  host.ctx.provide('mcpSampling')
  host.ctx.set('mcpSampling', service)
  return provided
}

const stdio = (era: Era) => ({ transport: 'stdio', command: process.execPath, args: [SERVER, era] })

async function http(era: Era) {
  if (era === 'legacy') return { transport: 'streamable-http', url: (await serveHttp(legacyFactory)).url }
  const listener = afterTest((await listenFetch(createMcpHandler(modernFactory, { legacy: 'reject' }))) as { url: string; close(): Promise<void> }, (l) => l.close())
  return { transport: 'streamable-http', url: listener.url }
}

const load = (host: TestHost, where: Record<string, unknown>, sampling?: Record<string, unknown>) => host.load({ serverName: 'smp', ...where, ...(sampling && { sampling }) })

async function call(host: TestHost, tool: string, args: Record<string, unknown> = {}) {
  return host.tools.execute(publicToolName('smp', tool), args)
}

function json(result: Awaited<ReturnType<typeof call>>): unknown {
  if (result.isError) throw new Error(result.error.message)
  return JSON.parse((result.content[0] as { text: string }).text)
}

/** What the server got back, whichever era: the legacy tool returns it, the modern one nests it. */
const answerOf = (era: Era, result: Awaited<ReturnType<typeof call>>) => (era === 'legacy' ? json(result) : (json(result) as { answer: unknown }).answer)

const REPLY: SamplingReply = { text: 'a reply', model: 'Fast-2', stopReason: 'endTurn' }

describe.each([
  ['stdio', stdio],
  ['http', http],
] as const)('sampling over %s', (_transport, where) => {
  it.each(['legacy', 'modern'] as const)('configured (%s): the host model gets a bounded, redacted request and its answer reaches the server', async (era) => {
    const host = await startHost()
    const { asked } = provide(host, () => REPLY)
    await load(host, await where(era), { enabled: true, models: ['slow-1', 'Fast-2'], maxTokens: 50 })
    if (era === 'legacy') expect(json(await call(host, 'caps'))).toEqual({ sampling: {} })
    expect(answerOf(era, await call(host, 'sample', { prompt: 'x'.repeat(40_000), hint: 'fast', maxTokens: 500 }))).toEqual({ role: 'assistant', content: { type: 'text', text: 'a reply' }, model: 'Fast-2', stopReason: 'endTurn' })
    expect(asked).toHaveLength(1)
    const request = asked[0]!
    expect(request).toMatchObject({ serverName: 'smp', systemPrompt: 'You are a test server.', maxTokens: 50, model: 'Fast-2' })
    expect(request.messages).toHaveLength(1)
    expect(request.messages[0]!.role).toBe('user')
    // 32,000 characters of the server's words in all (the default maxPromptChars), cut with a marker.
    expect(request.messages[0]!.text.slice(-60)).toMatch(/… \[cut: showed \d+ of 40049 characters\]$/)
    expect(request.messages[0]!.text.length + request.systemPrompt!.length).toBeLessThan(32_100)
    expect(JSON.stringify(request)).not.toContain(SECRET)
  })

  it.each(['legacy', 'modern'] as const)('unconfigured (%s): no capability declared, and the ask is refused', async (era) => {
    const host = await startHost()
    const { asked } = provide(host, () => REPLY)
    await load(host, await where(era))
    if (era === 'legacy') {
      expect(json(await call(host, 'caps'))).toEqual({})
      expect(json(await call(host, 'sample'))).toEqual({ error: 'MCP error -32601: Method not found' })
    } else {
      // 2026-07-28 sends the client's capabilities with each request: the server sees no sampling and does not ask.
      expect(await call(host, 'sample')).toMatchObject({ isError: true, error: { message: expect.stringMatching(/-32021.*\(sampling\/createMessage\): the request's client capabilities do not declare the required capability/) } })
    }
    expect(asked).toHaveLength(0)
  })

  it.each(['legacy', 'modern'] as const)('the approval hook refuses (%s): -1, and the model is not run', async (era) => {
    const host = await startHost()
    const provided = provide(host, () => REPLY, () => false)
    await load(host, await where(era), { enabled: true })
    const result = await call(host, 'sample')
    const refusal = /-1: sampling\/createMessage refused by the host for server "smp"/
    if (era === 'legacy') expect(json(result)).toEqual({ error: expect.stringMatching(refusal) })
    else expect(result).toMatchObject({ isError: true, error: { message: expect.stringMatching(/refused by the bridge: .*refused by the host for server "smp"/) } })
    expect(provided.approvals).toHaveLength(1)
    expect(provided.asked).toHaveLength(0)
  })
})

describe('sampling caps (legacy, stdio)', () => {
  it('enabled without the host service: nothing is declared', async () => {
    const host = await startHost()
    await load(host, stdio('legacy'), { enabled: true })
    expect(json(await call(host, 'caps'))).toEqual({})
  })

  it('maxTokens over the cap is refused with -32602 when overMaxTokens is refuse, without asking the host', async () => {
    const host = await startHost()
    const provided = provide(host, () => REPLY, () => true)
    await load(host, stdio('legacy'), { enabled: true, maxTokens: 50, overMaxTokens: 'refuse' })
    expect(json(await call(host, 'sample', { maxTokens: 51 }))).toEqual({ error: expect.stringMatching(/-32602.*maxTokens 51 is more than the 50 this client allows \(sampling.maxTokens\)/) })
    expect(json(await call(host, 'sample', { image: true }))).toEqual({ error: expect.stringMatching(/-32602.*messages\[0\] holds "image" content; this client passes text only/) })
    expect(provided.approvals).toHaveLength(0)
    expect(provided.asked).toHaveLength(0)
  })

  it("cuts the model's reply to maxReplyChars before it goes back", async () => {
    const host = await startHost()
    provide(host, () => ({ text: 'y'.repeat(500), model: 'm'.repeat(1_000) }))
    await load(host, stdio('legacy'), { enabled: true, maxReplyChars: 100 })
    const answer = json(await call(host, 'sample')) as { content: { text: string }; model: string; stopReason: string }
    expect(answer.content.text).toBe(`${'y'.repeat(100)}… [cut: showed 100 of 500 characters]`)
    expect(answer.model).toHaveLength(256)
    expect(answer.stopReason).toBe('maxTokens')
  })

  it('a flood beyond maxConcurrent is refused at once (-1) while the bridge keeps serving tool calls', async () => {
    const host = await startHost()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let inFlight = 0
    let most = 0
    const { asked } = provide(host, async () => {
      most = Math.max(most, ++inFlight)
      await gate
      inFlight--
      return REPLY
    })
    await load(host, stdio('legacy'), { enabled: true, maxConcurrent: 2, requestsPerMinute: 100 })
    const flood = call(host, 'sample_flood', { count: 10 })
    // Two are held by the host; the server has heard back about the other eight.
    await expect.poll(() => host.logs.some((line) => line.includes('settled 8'))).toBe(true)
    expect(await call(host, 'echo', { text: 'still here' })).toMatchObject({ isError: false, content: [{ type: 'text', text: 'echo: still here' }] })
    release()
    const outcomes = json(await flood) as string[]
    expect(most).toBe(2)
    expect(asked).toHaveLength(2)
    expect(outcomes.filter((o) => o === 'answered')).toHaveLength(2)
    expect(outcomes.filter((o) => /MCP error -1: sampling\/createMessage refused: 2 sampling request\(s\) are already being answered \(sampling.maxConcurrent\)/.test(o))).toHaveLength(8)
  })

  it('requests beyond requestsPerMinute are refused (-1)', async () => {
    const host = await startHost()
    const { asked } = provide(host, () => REPLY)
    await load(host, stdio('legacy'), { enabled: true, maxConcurrent: 64, requestsPerMinute: 3 })
    const outcomes = json(await call(host, 'sample_flood', { count: 10 })) as string[]
    expect(outcomes.filter((o) => o === 'answered')).toHaveLength(3)
    expect(outcomes.filter((o) => /MCP error -1: .*more than 3 sampling request\(s\) within a minute \(sampling.requestsPerMinute\)/.test(o))).toHaveLength(7)
    expect(asked).toHaveLength(3)
  })
})

describe('a sampling request the host cannot finish', () => {
  it.each(['legacy', 'modern'] as const)('is aborted when the connection closes (%s): the host is told through its signal', async (era) => {
    const host = await startHost()
    const signals: AbortSignal[] = []
    provide(host, (request) => (signals.push(request.signal), new Promise<never>(() => {})))
    await load(host, stdio(era), { enabled: true })
    const pending = call(host, 'sample')
    await expect.poll(() => signals.length).toBe(1)
    expect(signals[0]!.aborted).toBe(false)
    await host.dispose()
    expect(signals[0]!.aborted).toBe(true)
    expect(await pending).toMatchObject({ isError: true })
  })

  it("a model that fails gives the server -32603 with the host's reason, redacted", async () => {
    const host = await startHost()
    provide(host, () => {
      throw new Error(`provider refused the key ${SECRET}`)
    })
    await load(host, stdio('legacy'), { enabled: true })
    const { error } = json(await call(host, 'sample')) as { error: string }
    expect(error).toMatch(/^MCP error -32603: sampling\/createMessage failed while the host ran the model: provider refused the key /)
    expect(error).not.toContain(SECRET)
  })
})
