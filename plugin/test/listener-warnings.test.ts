import { fixtureCommand, startHttpFixture, type BehaviourInput } from '@mcp-bridge/fixtures-server'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { afterTest } from './support/cleanup.ts'
import { startHost } from './support/host.ts'

/**
 * No MaxListenersExceededWarning at any concurrency: one listener per request on the session
 * signal (HTTP), or per call on a caller's signal shared across parallel calls, used to trip it
 * past 10. Cancellation must still reach every call, and the server must hear of each.
 */
const CALLS = 100
const behaviour: BehaviourInput = {
  tools: [{ name: 'slow', delayMs: 100 }, { name: 'never', hang: true }, { name: 'fixture_status', result: { content: [{ type: 'status' }] } }],
}

let warnings: Error[] = []
const onWarning = (warning: Error) => warnings.push(warning)
beforeEach(() => {
  warnings = []
  process.on('warning', onWarning)
})
afterEach(() => {
  process.off('warning', onWarning)
})

async function target(kind: 'http' | 'stdio'): Promise<Record<string, unknown>> {
  if (kind === 'stdio') return { transport: 'stdio', ...fixtureCommand(behaviour), killGraceMs: 200 }
  const fixture = afterTest(await startHttpFixture(behaviour), (fx) => fx.close())
  return { transport: 'streamable-http', url: fixture.url }
}

describe.each(['http', 'stdio'] as const)('no listener warnings over %s', (kind) => {
  it(`${CALLS} concurrent calls, with and without one shared caller signal`, async () => {
    const host = await startHost()
    await host.load({ serverName: 'many', ...(await target(kind)) })
    const shared = new AbortController()
    const results = await Promise.all(
      Array.from({ length: CALLS }, (_, n) => host.tools.execute('mcp__many__slow', { n }, n % 2 ? { signal: shared.signal } : {})),
    )
    expect(results.filter((result) => result.isError)).toEqual([])
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([])
  })

  it('a shared signal still aborts every call in flight, and the server is told of each', async () => {
    const host = await startHost()
    await host.load({ serverName: 'many', ...(await target(kind)) })
    const shared = new AbortController()
    const calls = Array.from({ length: 30 }, (_, n) => host.tools.execute('mcp__many__never', { n }, { signal: shared.signal }))
    // Every call reached the server before the abort: its status counts them.
    await expect.poll(async () => JSON.parse(textOf(await host.tools.execute('mcp__many__fixture_status', {}))).calls).toBeGreaterThanOrEqual(30)
    shared.abort(new Error('the turn was cancelled'))
    const results = await Promise.all(calls)
    expect(results.map((result) => (result.isError ? result.error.code : 'ok'))).toEqual(Array(30).fill('ABORTED'))
    await expect
      .poll(async () => JSON.parse(textOf(await host.tools.execute('mcp__many__fixture_status', {}))).cancellations.length)
      .toBe(30)
    expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([])
  })
})

function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  const block = result.content[0]
  return block?.type === 'text' ? (block.text ?? '') : ''
}
