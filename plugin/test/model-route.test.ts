import { describe, expect, it } from 'vitest'
import type { ToolExecution } from '../src/index.ts'
import { resolveModelInfo, routeOf } from '../src/model-route.ts'

const signal = new AbortController().signal
const exec = (extra: Record<string, unknown>) => ({ callId: 'c', name: 't', arguments: {}, signal, ...extra }) as ToolExecution

describe('routeOf: the calling model, as each host says it', () => {
  it('reads `route` (the reference registry)', () => {
    expect(routeOf(exec({ route: { provider: 'acme', model: 'v1' } }))).toEqual({ provider: 'acme', model: 'v1' })
  })

  it("reads the agent's latest request first, then its options (the harness' ToolRuntime)", () => {
    const session = (config?: unknown) => ({ requestHeader: () => (config ? { config } : undefined) })
    const options = { provider: 'deepseek', model: 'chat' }
    expect(routeOf(exec({ agent: { options, session: session() } }))).toEqual(options)
    expect(routeOf(exec({ agent: { options, session: session({ provider: 'deepseek', model: 'vision' }) } }))).toEqual({ provider: 'deepseek', model: 'vision' })
    // Half a header is completed from the options, as the seed did.
    expect(routeOf(exec({ agent: { options, session: session({ model: 'reasoner' }) } }))).toEqual({ provider: 'deepseek', model: 'reasoner' })
  })

  it('is undefined when nothing names both a provider and a model, or the agent throws', () => {
    expect(routeOf(exec({}))).toBeUndefined()
    expect(routeOf(exec({ route: { provider: 'acme' } }))).toBeUndefined()
    expect(routeOf(exec({ agent: { options: { model: 'm' } } }))).toBeUndefined()
    const hostile = {
      options: { provider: 'p', model: 'm' },
      session: {
        requestHeader() {
          throw new Error('session closed')
        },
      },
    }
    expect(routeOf(exec({ agent: hostile }))).toEqual({ provider: 'p', model: 'm' })
  })
})

describe('resolveModelInfo: the llm service, by the parameters it declares', () => {
  const route = { provider: 'acme', model: 'v1' }

  it('passes the route object to a one-parameter service (the reference ModelCatalog)', async () => {
    const calls: unknown[][] = []
    const llm = { resolveModelInfo: async (r: unknown) => (calls.push([r]), { inputModalities: ['image'] }) }
    expect(await resolveModelInfo(llm, route, signal)).toEqual({ inputModalities: ['image'] })
    expect(calls).toEqual([[route]])
  })

  it("passes provider, model and the call's signal to a positional service (the harness' LlmRuntime)", async () => {
    const calls: unknown[][] = []
    const llm = {
      async resolveModelInfo(provider: string, model: string, s?: AbortSignal) {
        calls.push([provider, model, s])
        return { inputModalities: ['text'] }
      },
    }
    expect(await resolveModelInfo(llm, route, signal)).toEqual({ inputModalities: ['text'] })
    expect(calls).toEqual([['acme', 'v1', signal]])
  })

  it('keeps `this` for a class-based service', async () => {
    class Runtime {
      private readonly table = new Map([['acme/v1', ['text', 'image']]])
      async resolveModelInfo(provider: string, model: string, _signal?: AbortSignal) {
        return { inputModalities: this.table.get(`${provider}/${model}`) }
      }
    }
    expect(await resolveModelInfo(new Runtime(), route, signal)).toEqual({ inputModalities: ['text', 'image'] })
  })
})
