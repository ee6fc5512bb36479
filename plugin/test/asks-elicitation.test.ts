import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { ElicitationAnswer, ElicitationRequest, McpElicitationService } from '../src/index.ts'
import { MAX_WAITING_ASKS } from '../src/asks/client-asks.ts'
import { publicToolName } from '../src/naming.ts'
import { startHost, type TestHost } from './support/host.ts'

/**
 * Elicitation through the host's `mcpElicitation` service, both ways a server asks: a legacy
 * server request (v1 SDK, 2025-11-25) and an input request of a 2026-07-28 `input_required`
 * result, retried with the answer and the server's requestState (v2 SDK). The server is a real
 * stdio child (support/asks-server.mjs) that returns what it was answered.
 */
const SERVER = fileURLToPath(new URL('./support/asks-server.mjs', import.meta.url))

function provide(host: TestHost, answer: (request: ElicitationRequest) => Promise<ElicitationAnswer> | ElicitationAnswer, modes?: McpElicitationService['modes']) {
  const asked: ElicitationRequest[] = []
  const service: McpElicitationService = { ...(modes && { modes }), elicit: async (request) => (asked.push(request), answer(request)) }
  host.ctx.provide('mcpElicitation')
  host.ctx.set('mcpElicitation', service)
  return asked
}

async function call(host: TestHost, tool: string) {
  const result = await host.tools.execute(publicToolName('asks', tool), {})
  return result
}

function answerOf(result: Awaited<ReturnType<typeof call>>): unknown {
  if (result.isError) throw new Error(result.error.message)
  return JSON.parse((result.content[0] as { text: string }).text)
}

const load = (host: TestHost, era: 'legacy' | 'modern', extra: Record<string, unknown> = {}) =>
  host.load({ transport: 'stdio', serverName: 'asks', command: process.execPath, args: [SERVER, era], ...extra })

const capsLine = (host: TestHost) => host.logs.find((line) => line.includes('caps {'))

describe('elicitation over a legacy server request', () => {
  it('declares the modes the service offers, asks the host with checked fields and sends the answer with its defaults', async () => {
    const host = await startHost()
    const asked = provide(host, () => ({ action: 'accept', content: { name: 'Ada' } }))
    await load(host, 'legacy')
    await expect.poll(() => capsLine(host)).toMatch(/caps \{"elicitation":\{"form":\{\}\}\}/)
    expect(answerOf(await call(host, 'ask_form'))).toEqual({ action: 'accept', content: { name: 'Ada', age: 30, plan: 'free' } })
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({ serverName: 'asks', mode: 'form', message: 'Who are you?' })
    expect((asked[0] as { fields: unknown }).fields).toEqual([
      { name: 'name', required: true, kind: 'string', title: 'Your name', minLength: 1 },
      { name: 'age', required: false, kind: 'integer', default: 30 },
      { name: 'plan', required: false, kind: 'choice', default: 'free', options: [{ value: 'free', label: 'free' }, { value: 'pro', label: 'pro' }] },
    ])
  })

  it('refuses a form outside the restricted subset with -32602, without asking the host', async () => {
    const host = await startHost()
    const asked = provide(host, () => ({ action: 'decline' }))
    await load(host, 'legacy')
    // A nested object: the SDK's own check of the request refuses it.
    expect(answerOf(await call(host, 'ask_nested'))).toEqual({ error: expect.stringMatching(/-32602.*Invalid elicitation request/) })
    // Within the SDK's shape but not a form: required names a field it does not have (ours).
    expect(answerOf(await call(host, 'ask_unknown_required'))).toEqual({ error: expect.stringMatching(/-32602.*requestedSchema required must list names of its properties/) })
    expect(asked).toHaveLength(0)
  })

  it('does not send an answer that does not fit the form: the server gets an error instead', async () => {
    const host = await startHost()
    provide(host, () => ({ action: 'accept', content: { name: 'Ada', age: 'thirty' } }) as unknown as ElicitationAnswer)
    await load(host, 'legacy')
    expect(answerOf(await call(host, 'ask_form'))).toEqual({ error: expect.stringMatching(/the host's answer does not fit the form: the value of "age" is not a number/) })
  })

  it('hands a URL ask over with its domain, and accepting sends no content', async () => {
    const host = await startHost()
    const asked = provide(host, () => ({ action: 'accept' }), ['form', 'url'])
    await load(host, 'legacy')
    await expect.poll(() => capsLine(host)).toMatch(/"elicitation":\{"form":\{\},"url":\{\}\}/)
    expect(answerOf(await call(host, 'ask_url'))).toEqual({ action: 'accept' })
    expect(asked[0]).toMatchObject({ mode: 'url', url: 'https://auth.example.com/start?session=1', domain: 'auth.example.com' })
  })

  it('declares no elicitation without the service, and a server that asks anyway gets -32601', async () => {
    const host = await startHost()
    await load(host, 'legacy')
    await expect.poll(() => capsLine(host)).toMatch(/caps \{\}$/)
    // A server that asks anyway is told the method is not there (the handler is not registered).
    expect(answerOf(await call(host, 'ask_form'))).toEqual({ error: 'MCP error -32601: Method not found' })
  })

  it(`asks the host one at a time, with at most ${MAX_WAITING_ASKS} waiting: a flood beyond that is declined unasked`, async () => {
    const host = await startHost()
    let inFlight = 0
    let most = 0
    const overflow = () => host.logs.some((line) => line.includes('later ones are declined without asking'))
    const asked = provide(host, async () => {
      most = Math.max(most, ++inFlight)
      // The first ask is held until the flood has overflowed the queue behind it.
      if (asked.length === 1) await expect.poll(overflow).toBe(true)
      inFlight--
      return { action: 'accept', content: {} }
    })
    await load(host, 'legacy')
    const actions = answerOf(await call(host, 'ask_flood')) as string[]
    const accepted = actions.filter((a) => a === 'accept').length
    expect(most).toBe(1)
    expect(asked).toHaveLength(accepted)
    expect(accepted).toBeGreaterThanOrEqual(1 + MAX_WAITING_ASKS)
    expect(actions.filter((a) => a === 'decline')).toHaveLength(10 - accepted)
    expect(accepted).toBeLessThan(10)
  })
})

describe('an ask left waiting', () => {
  // 2026-07-28: no request is in flight while the host is asked (the call's first leg has
  // ended), so only the bridge's own end of the connection can stop the ask.
  it.each(['legacy', 'modern'] as const)('is cancelled when the connection closes (%s): the host is told through its signal', async (era) => {
    const host = await startHost()
    const signals: AbortSignal[] = []
    provide(host, (request) => (signals.push(request.signal), new Promise<never>(() => {})))
    await load(host, era)
    const pending = call(host, 'ask_form')
    await expect.poll(() => signals.length).toBe(1)
    expect(signals[0]!.aborted).toBe(false)
    await host.dispose()
    expect(signals[0]!.aborted).toBe(true)
    expect(await pending).toMatchObject({ isError: true })
  })
})

describe('elicitation as an input request of a 2026-07-28 input_required result', () => {
  it('answers through the same service and retries with the answer and the echoed requestState', async () => {
    const host = await startHost()
    const asked = provide(host, () => ({ action: 'accept', content: { name: 'Ada' } }))
    await load(host, 'modern')
    expect(answerOf(await call(host, 'ask_form'))).toEqual({
      answer: { action: 'accept', content: { name: 'Ada', age: 30, plan: 'free' } },
      state: 'state-of-ask_form',
      view: 'elicit',
    })
    expect(asked).toHaveLength(1)
  })

  it('ends the call with a clear tool error when the form is outside the subset', async () => {
    const host = await startHost()
    const asked = provide(host, () => ({ action: 'decline' }))
    await load(host, 'modern')
    expect(await call(host, 'ask_nested')).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: expect.stringMatching(/ask_nested failed: the server's input request was refused by the bridge: .*Invalid elicitation request/) } })
    const ours = await call(host, 'ask_unknown_required')
    expect(ours).toMatchObject({ isError: true, error: { code: 'TOOL_ERROR', message: expect.stringMatching(/ask_unknown_required failed: the server's input request was refused by the bridge: .*requestedSchema required must list names of its properties; the call was not retried$/) } })
    expect(asked).toHaveLength(0)
  })

  it('a decline is an answer too: the server gets it on the retry', async () => {
    const host = await startHost()
    provide(host, () => ({ action: 'decline' }))
    await load(host, 'modern')
    expect(answerOf(await call(host, 'ask_form'))).toMatchObject({ answer: { action: 'decline' }, state: 'state-of-ask_form' })
  })
})
